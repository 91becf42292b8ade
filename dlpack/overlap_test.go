package dlpack

import (
	"math"
	"slices"
	"testing"
)

func TestSelfOverlapping(t *testing.T) {
	tests := []struct {
		name           string
		shape, strides []int64
		want           bool
	}{
		{"0-d", nil, nil, false},
		{"0-d empty slices", []int64{}, []int64{}, false},
		{"contiguous", []int64{5}, []int64{1}, false},
		{"nil strides", []int64{2, 3}, nil, false},
		{"broadcast", []int64{5}, []int64{0}, true},
		{"size 1, stride 0", []int64{1}, []int64{0}, false},
		{"reversed", []int64{5}, []int64{-1}, false},
		{"step 2", []int64{5}, []int64{2}, false},
		{"C order", []int64{2, 3}, []int64{3, 1}, false},
		{"F order", []int64{2, 3}, []int64{1, 2}, false},
		{"both reversed", []int64{2, 3}, []int64{-3, -1}, false},
		{"sliced rows", []int64{3, 2}, []int64{10, 1}, false},
		{"rows overlap", []int64{2, 3}, []int64{2, 1}, true}, // (1, 0) and (0, 2) are both at 2
		{"equal strides", []int64{2, 2}, []int64{1, 1}, true},
		{"equal strides, opposite signs", []int64{2, 2}, []int64{-1, 1}, true},
		{"just apart", []int64{2, 2}, []int64{2, 1}, false},
		{"just apart, negative", []int64{2, 2}, []int64{-2, 1}, false},
		{"row broadcast", []int64{3, 4}, []int64{0, 1}, true},
		{"column broadcast", []int64{3, 4}, []int64{4, 0}, true},
		{"broadcast of size 1 dims only", []int64{1, 4, 1}, []int64{0, 1, 0}, false},
		{"size 1 dims, any strides", []int64{1, 1, 1}, []int64{0, -7, math.MinInt64}, false},
		{"size 1 dim between", []int64{2, 1, 3}, []int64{3, 1, 1}, false},
		{"empty with stride 0", []int64{0, 5}, []int64{0, 0}, false},
		{"empty last dim", []int64{5, 0}, []int64{0, 1}, false},
		{"interleaved, conservative", []int64{3, 2}, []int64{2, 3}, true}, // offsets 0, 3, 2, 5, 4, 7: distinct
		{"dimensions out of order", []int64{2, 2, 2}, []int64{1, 4, 2}, false},
		{"3-d overlap", []int64{2, 2, 2}, []int64{1, 4, 3}, true}, // (0, 1, 0) and (1, 0, 1) are both at 4
		{"extreme strides", []int64{2, 2}, []int64{math.MinInt64, math.MaxInt64}, false},
		{"MinInt64 alone", []int64{2}, []int64{math.MinInt64}, false},
		{"span reaches the next stride", []int64{3, 3}, []int64{1 << 62, 1<<62 + 1}, true},
		{"offsets 2**64 apart wrap to one address", []int64{3, 2}, []int64{math.MinInt64, math.MaxInt64}, true},
		{"|MinInt64| within the span", []int64{3, 2}, []int64{1 << 62, math.MinInt64}, true},
		{"strides too short", []int64{2, 3}, []int64{1}, true},
		{"negative dimension", []int64{2, -1}, []int64{1, 1}, true},
		{"negative dimension, nil strides", []int64{-1}, nil, true},
	}
	for _, tt := range tests {
		if got := SelfOverlapping(tt.shape, tt.strides); got != tt.want {
			t.Errorf("%s: SelfOverlapping(%v, %v) = %v, want %v", tt.name, tt.shape, tt.strides, got, tt.want)
		}
	}
}

// walkable returns the number of elements of shape when it has no
// negative dimension and at most 4096 elements, few enough to visit.
func walkable(shape []int64) (int64, bool) {
	if slices.Contains(shape, 0) {
		return 0, !slices.ContainsFunc(shape, func(d int64) bool { return d < 0 })
	}
	n := int64(1)
	for _, d := range shape {
		if d < 0 || d > 4096 {
			return 0, false
		}
		if n *= d; n > 4096 {
			return 0, false
		}
	}
	return n, true
}

// collides reports, by visiting every index, whether two indices of a small
// layout share an offset.
func collides(shape, strides []int64) bool {
	n, ok := walkable(shape)
	if !ok || n == 0 {
		return false
	}
	seen, collide := map[int64]bool{}, false
	visit(shape, strides, n, false, func(_, off int64) {
		collide = collide || seen[off]
		seen[off] = true
	})
	return collide
}

// Every 2-d layout with dimensions 0..4 and strides -6..6: where
// SelfOverlapping says no, no two indices collide; for one dimension, or a
// stride of 0, it is exact.
func TestSelfOverlappingBruteForce(t *testing.T) {
	conservative := 0
	for a := int64(0); a <= 4; a++ {
		for b := int64(0); b <= 4; b++ {
			for s := int64(-6); s <= 6; s++ {
				for r := int64(-6); r <= 6; r++ {
					shape, strides := []int64{a, b}, []int64{s, r}
					got, want := SelfOverlapping(shape, strides), collides(shape, strides)
					switch {
					case !got && want:
						t.Errorf("SelfOverlapping(%v, %v) = false, but two indices collide", shape, strides)
					case got && !want && (a > 1 && s == 0 || b > 1 && r == 0 || a <= 1 || b <= 1):
						t.Errorf("SelfOverlapping(%v, %v) = true, but no indices collide", shape, strides)
					case got && !want:
						conservative++
					}
				}
			}
		}
	}
	if conservative == 0 {
		t.Error("no conservative answer: the table's (3, 2) strides (2, 3) case should be among them")
	}
}

func FuzzSelfOverlapping(f *testing.F) {
	f.Add(uint8(2), []byte{3, 4, 2, 1})
	f.Add(uint8(3), []byte{2, 1, 2, 4, 2, 3})
	f.Add(uint8(3), []byte{3, 0x7f, 2, 2, 4, 0})
	f.Fuzz(func(t *testing.T, ndim uint8, data []byte) {
		shape, strides := fuzzLayout(ndim%5, data)
		got := SelfOverlapping(shape, strides)
		if _, ok := walkable(shape); !ok {
			return
		}
		if !got && collides(shape, strides) {
			t.Fatalf("SelfOverlapping(%v, %v) = false, but two indices collide", shape, strides)
		}
	})
}

func TestSelfOverlappingNoAlloc(t *testing.T) {
	shape, strides := []int64{4, 3, 2, 5}, []int64{-30, 10, 5, 1}
	if allocs := testing.AllocsPerRun(100, func() { SelfOverlapping(shape, strides) }); allocs != 0 {
		t.Errorf("SelfOverlapping allocated %v times", allocs)
	}
}
