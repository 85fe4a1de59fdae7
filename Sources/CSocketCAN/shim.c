// All helpers are static inline in include/CSocketCAN.h; this file makes the target non-empty.
#include "CSocketCAN.h"
