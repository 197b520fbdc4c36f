// A C target needs one source file; everything is in the header.
#include "CTockLinux.h"
