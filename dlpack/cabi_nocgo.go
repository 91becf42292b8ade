//go:build !cgo

package dlpack

// cABI returns nil when cgo is off; the tests then check the Go mirrors
// against the published layout only.
func cABI() map[string]uint64 { return nil }

// cMinVersion is MinVersion when cgo is off: there is no C to compare.
func cMinVersion(dt DataType, dev Device) Version { return MinVersion(dt, dev) }

// cKnown is DataType.Known when cgo is off: there is no C to compare.
func cKnown(dt DataType) bool { return dt.Known() }

// cValid is DataType.Check when cgo is off: there is no C to compare.
func cValid(dt DataType) bool { return dt.Check() == nil }

// cDeviceTypeName is DeviceType.String for known types when cgo is off: there is no C to compare.
func cDeviceTypeName(t DeviceType) (string, bool) {
	if !t.Known() {
		return "", false
	}
	return t.String(), true
}

// cCPUAccessible is DeviceType.CPUAccessible when cgo is off: there is no C to compare.
func cCPUAccessible(t DeviceType) bool { return t.CPUAccessible() }
