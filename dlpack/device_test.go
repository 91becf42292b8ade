package dlpack

import (
	"fmt"
	"testing"
)

// TestDeviceNamesMatchC holds dlpack.h's gdl_device_type_name and
// gdl_is_cpu_accessible, which the Python extension uses without entering
// Go, to DeviceType.String and CPUAccessible for every type from -1 to 40,
// and ParseDeviceType to String.
func TestDeviceNamesMatchC(t *testing.T) {
	for typ := DeviceType(-1); typ <= 40; typ++ {
		name, ok := cDeviceTypeName(typ)
		if ok != typ.Known() || ok && name != typ.String() {
			t.Errorf("gdl_device_type_name(%d) = %q, %v; Known = %v, String = %q", typ, name, ok, typ.Known(), typ)
		}
		if got, want := cCPUAccessible(typ), typ.CPUAccessible(); got != want {
			t.Errorf("gdl_is_cpu_accessible(%d) = %v, CPUAccessible = %v", typ, got, want)
		}
		if parsed, ok := ParseDeviceType(typ.String()); ok != typ.Known() || ok && parsed != typ {
			t.Errorf("ParseDeviceType(%q) = %d, %v", typ.String(), parsed, ok)
		}
	}
}

func TestDevicesAfterDLPack13(t *testing.T) {
	tests := []struct {
		typ  DeviceType
		name string
		cpu  bool
	}{
		{TPU, "tpu", false},
		{TPUHost, "tpu_host", true},
		{Ascend, "ascend", false},
	}
	for _, tt := range tests {
		if tt.typ.String() != tt.name || tt.typ.CPUAccessible() != tt.cpu || !tt.typ.Known() {
			t.Errorf("%d: String %q, CPUAccessible %v, Known %v; want %q, %v, true", tt.typ, tt.typ, tt.typ.CPUAccessible(), tt.typ.Known(), tt.name, tt.cpu)
		}
		// Added with the minor version unchanged: only a 1.3 consumer can be told about them.
		if v := MinVersion(Float32, Device{tt.typ, 0}); v != Current {
			t.Errorf("MinVersion(float32, %v) = %v, want %v", tt.typ, v, Current)
		}
	}
}

func ExampleParseDeviceType() {
	t, ok := ParseDeviceType("tpu_host")
	fmt.Println(t, int32(t), ok, t.CPUAccessible())
	// Output: tpu_host 20 true true
}
