//go:build !cgo

package cabi

// Enabled reports whether cgo built this package; without cgo every
// function returns the zero value and the tests check the Go side alone.
const Enabled = false

// Facts returns nil: without cgo there is no C compiler's view to report.
func Facts() map[string]uint64 { return nil }

// MinVersion returns 0.0 without cgo.
func MinVersion(code, bits uint8, lanes uint16, deviceType, deviceID int32) (major, minor uint32) {
	return 0, 0
}

// Known returns false without cgo.
func Known(code, bits uint8, lanes uint16) bool { return false }

// Valid returns false without cgo.
func Valid(code, bits uint8, lanes uint16) bool { return false }

// ItemSize returns 0 without cgo.
func ItemSize(code, bits uint8, lanes uint16, padded bool) int64 { return 0 }

// DeviceTypeName returns false without cgo.
func DeviceTypeName(t int32) (string, bool) { return "", false }

// CPUAccessible returns false without cgo.
func CPUAccessible(t int32) bool { return false }
