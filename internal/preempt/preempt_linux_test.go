package preempt

import "testing"

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
