package dlpack

import "github.com/godlpack/godlpack/testing/cabi"

// cABI returns the C compiler's facts of dlpack.h (see cabi.Facts), or nil
// when cgo is off and the tests check the Go mirrors against the published
// layout only.
func cABI() map[string]uint64 { return cabi.Facts() }

// cMinVersion is the header's gdl_min_version, which C code uses on the hot
// path instead of MinVersion; without cgo it is MinVersion itself.
func cMinVersion(dt DataType, dev Device) Version {
	if !cabi.Enabled {
		return MinVersion(dt, dev)
	}
	major, minor := cabi.MinVersion(uint8(dt.Code), dt.Bits, dt.Lanes, int32(dev.Type), dev.ID)
	return Version{major, minor}
}

// cKnown is the header's gdl_dtype_known; without cgo it is DataType.Known.
func cKnown(dt DataType) bool {
	if !cabi.Enabled {
		return dt.Known()
	}
	return cabi.Known(uint8(dt.Code), dt.Bits, dt.Lanes)
}

// cValid is the header's gdl_dtype_valid; without cgo it is DataType.Check.
func cValid(dt DataType) bool {
	if !cabi.Enabled {
		return dt.Check() == nil
	}
	return cabi.Valid(uint8(dt.Code), dt.Bits, dt.Lanes)
}

// cItemSize is the header's gdl_itemsize; without cgo it is
// DataType.StorageSize.
func cItemSize(dt DataType, padded bool) int {
	if !cabi.Enabled {
		return dt.StorageSize(padded)
	}
	return int(cabi.ItemSize(uint8(dt.Code), dt.Bits, dt.Lanes, padded))
}

// cDeviceTypeName is the header's gdl_device_type_name; without cgo it is
// DeviceType.String for known types.
func cDeviceTypeName(t DeviceType) (string, bool) {
	if !cabi.Enabled {
		if !t.Known() {
			return "", false
		}
		return t.String(), true
	}
	return cabi.DeviceTypeName(int32(t))
}

// cCPUAccessible is the header's gdl_is_cpu_accessible for device type t;
// without cgo it is DeviceType.CPUAccessible.
func cCPUAccessible(t DeviceType) bool {
	if !cabi.Enabled {
		return t.CPUAccessible()
	}
	return cabi.CPUAccessible(int32(t))
}
