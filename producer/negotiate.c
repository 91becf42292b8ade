#include "producer.h"

int gdl_negotiate(DLPackVersion asked, DLPackVersion need, bool read_only, DLPackVersion *out) {
	DLPackVersion v = {0, 0};
	if (asked.major == 0) {
		*out = v;
		if (need.major > 0)
			return GDL_LEGACY_TOO_OLD;
		return read_only ? GDL_LEGACY_READ_ONLY : GDL_NEGOTIATED;
	}
	v.major = GDL_MAJOR_VERSION;
	v.minor = asked.major > GDL_MAJOR_VERSION || asked.minor > GDL_MINOR_VERSION ? GDL_MINOR_VERSION : asked.minor;
	if (need.major == v.major && need.minor > v.minor)
		v.minor = need.minor;
	*out = v;
	return GDL_NEGOTIATED;
}
