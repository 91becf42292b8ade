package pymodule

import (
	"errors"
	"os"
	"strings"

	"github.com/godlpack/godlpack/internal/fmt"
)

// Main is the main function of an extension's package main, which runs
// only when the package is run as a program (go run): with -pyi FILE it
// writes the module's type stub there ("-" for standard output).
func (m *Module) Main() {
	pyi, err := pyiFlag(os.Args[1:])
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprintf(os.Stderr, "Usage of %s:\n%s", m.Name, pyiUsage)
		os.Exit(0)
	case err != nil:
		fmt.Fprintf(os.Stderr, "%v\nUsage of %s:\n%s", err, m.Name, pyiUsage)
		os.Exit(2)
	case pyi == "":
		fmt.Fprintf(os.Stderr, "%s is a Python extension module (build it with go build -buildmode=c-shared);\n"+
			"run it with -pyi FILE to write its type stub\n", m.Name)
		os.Exit(2)
	}
	stub, err := m.Stub()
	if err == nil {
		if pyi == "-" {
			_, err = os.Stdout.WriteString(stub)
		} else {
			err = os.WriteFile(pyi, []byte(stub), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// pyiUsage is what -h prints, as package flag would.
const pyiUsage = "  -pyi string\n    \twrite the module's type stub (.pyi) to this file (- for standard output)\n"

var errHelp = errors.New("help requested")

// pyiFlag reads Main's command line as package flag would, without it (it
// would link package fmt into every extension): -pyi FILE, -pyi=FILE, the
// same with --; -h, -help (errHelp); flags end at "--" or at the first
// argument that is none. The last -pyi wins; "" when there is none.
func pyiFlag(args []string) (string, error) {
	pyi := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		switch {
		case name == "h" || name == "help":
			return "", errHelp
		case name != "pyi":
			return "", errors.New("flag provided but not defined: -" + name)
		case !hasValue && i+1 == len(args):
			return "", errors.New("flag needs an argument: -pyi")
		case !hasValue:
			i++
			value = args[i]
		}
		pyi = value
	}
	return pyi, nil
}
