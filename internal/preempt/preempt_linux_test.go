package preempt

import (
	"testing"
	"unsafe"
)

func TestAsyncPreemptOff(t *testing.T) {
	for _, tt := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"asyncpreemptoff=1", true},
		{"gctrace=1,asyncpreemptoff=1", true},
		{"asyncpreemptoff=1,asyncpreemptoff=0", false},
		{"asyncpreemptoff=0,asyncpreemptoff=1", true},
		{"asyncpreemptoff=2", false},
		{"xasyncpreemptoff=1", false},
		{"asyncpreemptoff", false},
	} {
		if got := asyncPreemptOff(tt.godebug); got != tt.want {
			t.Errorf("asyncPreemptOff(%q) = %v, want %v", tt.godebug, got, tt.want)
		}
	}
}

func TestRestoreIsHandled(t *testing.T) {
	// The runtime handles the signal it receives while Go code runs: the test process lives on.
	for range 100 {
		Restore()
	}
}

func TestSiginfoLayout(t *testing.T) {
	var info siginfo
	if size := unsafe.Sizeof(info); size != 128 {
		t.Errorf("siginfo is %d bytes, want 128", size)
	}
	if off := unsafe.Offsetof(info.value); off != 24 {
		t.Errorf("si_value at %d, want 24", off)
	}
}
