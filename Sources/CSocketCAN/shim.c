#include "CSocketCAN.h"
