#include <libsocketcan.h>
