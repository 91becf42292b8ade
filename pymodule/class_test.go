package pymodule

import (
	"strings"
	"testing"
)

// TestFieldAccessors: a Field's accessor is called once, on a zero value, and
// must return the address of a field of its argument; the class's check says
// what is wrong with one that does not, before the module is made.
func TestFieldAccessors(t *testing.T) {
	type point struct {
		X, Y float64
		N    int32
	}
	type holder struct{ p *point }
	var global float64
	tests := []struct {
		name  string
		class Class
		want  string // "" for no error
	}{
		{"field", NewClass[point]("P", "", Field("y", func(p *point) *float64 { return &p.Y }, "")), ""},
		{"last", NewClass[point]("P", "", Field("n", func(p *point) *int32 { return &p.N }, "")), ""},
		{"through a pointer", NewClass[holder]("H", "", Field("x", func(h *holder) *float64 { return &h.p.X }, "")),
			"class H: field x: its accessor panicked on a zero pymodule.holder"},
		{"not in the value", NewClass[point]("P", "", Field("g", func(*point) *float64 { return &global }, "")),
			"class P: field g: its accessor must return the address of a field of its argument, a *pymodule.point"},
		{"another type's", NewClass[holder]("H", "", Field("y", func(p *point) *float64 { return &p.Y }, "")),
			"class H: field y: a field of pymodule.point, in the class of pymodule.holder"},
		{"no size", NewClass[struct{}]("Token", ""),
			"class Token: a Go type of no size (struct {}) has no address of its own for each value: give it a field"},
		{"an array of no size", NewClass[[0]int64]("Empty", ""), "class Empty: a Go type of no size ([0]int64)"},
	}
	for _, tt := range tests {
		err := tt.class.def.check()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: check() = %v, want %q", tt.name, err, tt.want)
		}
	}
	if f := NewClass[point]("P", "", Field("n", func(p *point) *int32 { return &p.N }, "")).def.props[0].field; f.offset != 16 || f.kind != kindInt32 {
		t.Errorf("field n: offset %d, kind %d; want 16 and kindInt32", f.offset, f.kind)
	}
}
