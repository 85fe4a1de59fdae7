#include <linux/can.h>
