// sd-bus from libsystemd (Debian: libsystemd-dev), and constructors for the vtable entries whose
// C macros Swift cannot expand. Each entry starts zeroed, as sd-bus-vtable.h asks.
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-bus-vtable.h>

static inline sd_bus_vtable csdbus_vtable_start(void) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_START;
    entry.x.start.element_size = sizeof(sd_bus_vtable);
    entry.x.start.features = _SD_BUS_VTABLE_PARAM_NAMES;
    entry.x.start.vtable_format_reference = &sd_bus_object_vtable_format;
    return entry;
}

/// `names`: each argument name followed by NUL, the inputs first, then the outputs.
static inline sd_bus_vtable csdbus_vtable_method(
    const char *member, const char *signature, const char *result, const char *names,
    sd_bus_message_handler_t handler) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_METHOD;
    entry.flags = SD_BUS_VTABLE_UNPRIVILEGED;
    entry.x.method.member = member;
    entry.x.method.signature = signature;
    entry.x.method.result = result;
    entry.x.method.handler = handler;
    entry.x.method.names = names;
    return entry;
}

static inline sd_bus_vtable csdbus_vtable_signal(const char *member, const char *signature, const char *names) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_SIGNAL;
    entry.x.signal.member = member;
    entry.x.signal.signature = signature;
    entry.x.signal.names = names;
    return entry;
}

static inline sd_bus_vtable csdbus_vtable_end(void) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_END;
    return entry;
}
