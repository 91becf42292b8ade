package pymodule

import (
	"reflect"
	"strings"
	"testing"
)

// TestSharedRefusals: Shared marks a method; a function or a static method
// has no instance to share, and the import refuses it.
func TestSharedRefusals(t *testing.T) {
	type point struct{ x float64 }
	for _, it := range []Item{
		Def("f", "", F0(func() {}), "").Shared(),
		NewClass[point]("P", "", StaticMethod("f", "", F0(func() {}), "").Shared()),
	} {
		_, err := (&Module{Name: "m", Items: []Item{it}}).Stub()
		if err == nil || !strings.Contains(err.Error(), "f: Shared applies to a class's Method") {
			t.Errorf("Stub() = %v, want Shared refused", err)
		}
	}
}

// TestSharedHolds: a shared method's instance and a getter's are held
// beside other shared calls, and nothing else is: a setter's, another
// instance argument of a shared method, an ordinary method's.
func TestSharedHolds(t *testing.T) {
	type point struct{ x float64 }
	d := NewClass[point]("P", "").def
	tests := []struct {
		name string
		f    Function
		want []bool // by parameter
	}{
		{"shared method", Method("m", "o", F2(func(*point, *point) {}), "").Shared(), []bool{true, false}},
		{"method", Method("m", "", F1(func(*point) {}), ""), []bool{false}},
		{"getter", Function{name: "g", fn: F1R(func(p *point) float64 { return p.x }), role: roleGetter}, []bool{true}},
		{"setter", Function{name: "g", params: "value", fn: F2(func(*point, float64) {}), role: roleSetter}, []bool{false, false}},
	}
	for _, tt := range tests {
		tt.f.class = d
		b, err := plan(tt.f, &scope{classes: map[reflect.Type]*classDef{d.typ: d}})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for i, want := range tt.want {
			if got := b.holdsShared(i); got != want {
				t.Errorf("%s: parameter %d held shared: %v, want %v", tt.name, i, got, want)
			}
		}
	}
}
