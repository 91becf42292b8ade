package pymodule

import (
	"testing"
)

// TestPyiFlag holds Main's command line to what package flag read.
func TestPyiFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		pyi  string
		err  string
	}{
		{nil, "", ""},
		{[]string{"-pyi", "m.pyi"}, "m.pyi", ""},
		{[]string{"--pyi=-"}, "-", ""},
		{[]string{"-pyi=a", "--pyi", "b"}, "b", ""},
		{[]string{"-pyi", "-"}, "-", ""},
		{[]string{"-pyi=x", "rest", "-bad"}, "x", ""},
		{[]string{"--", "-pyi", "x"}, "", ""},
		{[]string{"-pyi"}, "", "flag needs an argument: -pyi"},
		{[]string{"-out", "x"}, "", "flag provided but not defined: -out"},
		{[]string{"-h"}, "", "help requested"},
		{[]string{"--help"}, "", "help requested"},
	} {
		pyi, err := pyiFlag(tt.args)
		if pyi != tt.pyi || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("pyiFlag(%q) = %q, %v; want %q, %q", tt.args, pyi, err, tt.pyi, tt.err)
		}
	}
}
