// A YAML document as a stream of events, through Debian's libyaml
// (libyaml-0-2): the configuration file's reader walks them into a tree
// (Sources/TockConfig/YAMLNode.swift). Only what that reader needs.
#ifndef TOCK_YAML_H
#define TOCK_YAML_H

#include <stddef.h>
#include <stdint.h>

typedef struct tock_yaml tock_yaml;

enum tock_yaml_kind {
    TOCK_YAML_STREAM_END = 0,
    TOCK_YAML_DOCUMENT_START,
    TOCK_YAML_DOCUMENT_END,
    TOCK_YAML_SCALAR,
    TOCK_YAML_SEQUENCE_START,
    TOCK_YAML_SEQUENCE_END,
    TOCK_YAML_MAPPING_START,
    TOCK_YAML_MAPPING_END,
    TOCK_YAML_ALIAS,
    TOCK_YAML_OTHER,
};

/// One event. `text` (a scalar's value) and `anchor` (an anchor set on a
/// node, or the name an alias refers to) stay valid until the next call.
typedef struct {
    int kind;
    const char *text;
    size_t length;
    const char *anchor;
    /// 1-based, where the event starts.
    size_t line;
    size_t column;
} tock_yaml_event;

/// A parser over `length` UTF-8 bytes, which must outlive it; NULL when
/// out of memory.
tock_yaml *tock_yaml_open(const uint8_t *bytes, size_t length);
/// The next event: 0, or -1 when the text is not YAML (then
/// `tock_yaml_problem` says why and where).
int tock_yaml_next(tock_yaml *parser, tock_yaml_event *event);
/// What libyaml found wrong, its 1-based line and column, and the
/// construct it was reading (may be NULL).
const char *tock_yaml_problem(tock_yaml *parser, size_t *line, size_t *column, const char **context);
void tock_yaml_close(tock_yaml *parser);

#endif
