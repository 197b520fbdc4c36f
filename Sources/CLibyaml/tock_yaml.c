#include "tock_yaml.h"

#include <stdlib.h>
#include <yaml.h>

struct tock_yaml {
    yaml_parser_t parser;
    yaml_event_t event;
    int holding;
};

tock_yaml *tock_yaml_open(const uint8_t *bytes, size_t length) {
    tock_yaml *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (!yaml_parser_initialize(&p->parser)) { free(p); return NULL; }
    yaml_parser_set_encoding(&p->parser, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&p->parser, bytes, length);
    return p;
}

int tock_yaml_next(tock_yaml *p, tock_yaml_event *out) {
    if (p->holding) { yaml_event_delete(&p->event); p->holding = 0; }
    if (!yaml_parser_parse(&p->parser, &p->event)) return -1;
    p->holding = 1;
    yaml_event_t *e = &p->event;
    out->text = NULL;
    out->length = 0;
    out->anchor = NULL;
    out->line = e->start_mark.line + 1;
    out->column = e->start_mark.column + 1;
    switch (e->type) {
    case YAML_STREAM_END_EVENT: out->kind = TOCK_YAML_STREAM_END; break;
    case YAML_DOCUMENT_START_EVENT: out->kind = TOCK_YAML_DOCUMENT_START; break;
    case YAML_DOCUMENT_END_EVENT: out->kind = TOCK_YAML_DOCUMENT_END; break;
    case YAML_SCALAR_EVENT:
        out->kind = TOCK_YAML_SCALAR;
        out->text = (const char *)e->data.scalar.value;
        out->length = e->data.scalar.length;
        out->anchor = (const char *)e->data.scalar.anchor;
        break;
    case YAML_SEQUENCE_START_EVENT:
        out->kind = TOCK_YAML_SEQUENCE_START;
        out->anchor = (const char *)e->data.sequence_start.anchor;
        break;
    case YAML_SEQUENCE_END_EVENT: out->kind = TOCK_YAML_SEQUENCE_END; break;
    case YAML_MAPPING_START_EVENT:
        out->kind = TOCK_YAML_MAPPING_START;
        out->anchor = (const char *)e->data.mapping_start.anchor;
        break;
    case YAML_MAPPING_END_EVENT: out->kind = TOCK_YAML_MAPPING_END; break;
    case YAML_ALIAS_EVENT:
        out->kind = TOCK_YAML_ALIAS;
        out->anchor = (const char *)e->data.alias.anchor;
        break;
    default: out->kind = TOCK_YAML_OTHER; break;
    }
    return 0;
}

const char *tock_yaml_problem(tock_yaml *p, size_t *line, size_t *column, const char **context) {
    *line = p->parser.problem_mark.line + 1;
    *column = p->parser.problem_mark.column + 1;
    *context = p->parser.context;
    return p->parser.problem ? p->parser.problem : "cannot be read";
}

void tock_yaml_close(tock_yaml *p) {
    if (!p) return;
    if (p->holding) yaml_event_delete(&p->event);
    yaml_parser_delete(&p->parser);
    free(p);
}
