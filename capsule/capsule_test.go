package capsule

import "testing"

func TestRequestInC(t *testing.T) {
	for _, tt := range []struct {
		r    Request
		copy int
	}{
		{Request{}, -1},
		{Request{Copy: CopyAlways, Writable: true}, 1},
		{Request{Copy: CopyNever}, 0},
	} {
		c := tt.r.c(nil)
		if int(c.copy) != tt.copy || bool(c.writable) != tt.r.Writable {
			t.Errorf("Request%+v in C: copy %d, writable %v", tt.r, c.copy, c.writable)
		}
	}
}
