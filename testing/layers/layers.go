// Package layers holds the C files of a package to their rooms, for the
// package's tests: calls among its C files go one way, downward, also where
// they pass through a header's inline function. Only tests import it.
package layers

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	cComment    = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	cString     = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)
	cFunction   = regexp.MustCompile(`(?m)^[A-Za-z_][\w \t*]*?\b((?:gdl|godlpack)\w+)\s*\([^;{]*\)\s*\{`)
	cInline     = regexp.MustCompile(`(?m)^static inline [\w \t*]*?\b(gdl\w+)\s*\([^;{]*\)\s*\{`)
	cIdentifier = regexp.MustCompile(`\b(?:gdl|godlpack)\w+\b`)
)

// code returns a C file's text without comments and string literals.
func code(t testing.TB, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return cString.ReplaceAllString(cComment.ReplaceAllString(string(b), " "), `""`)
}

// body returns the braced body that starts at src[open].
func body(src string, open int) string {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return src[open : i+1]
			}
		}
	}
	return src[open:]
}

// Check holds the C files (*.c) of the package in the current directory to
// rooms, lowest first: a file refers only to functions (and variables)
// defined in files of its own room or below, directly or through the
// inline functions of the headers (*.h) of the same directory, which count
// as code of every file that uses them. Every C file needs a room.
func Check(t *testing.T, rooms [][]string) {
	t.Helper()
	room := map[string]int{}
	for i, files := range rooms {
		for _, f := range files {
			room[f] = i
		}
	}
	// What each header's inline functions refer to, their bodies read whole.
	inlines := map[string][]string{}
	headers, err := filepath.Glob("*.h")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		src := code(t, h)
		for _, m := range cInline.FindAllStringSubmatchIndex(src, -1) {
			name := src[m[2]:m[3]]
			inlines[name] = cIdentifier.FindAllString(body(src, m[1]-1), -1)
		}
	}
	paths, err := filepath.Glob("*.c")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	definedIn := map[string]string{}
	for _, p := range paths {
		if _, ok := room[p]; !ok {
			t.Errorf("%s has no room in rooms: give it one", p)
			continue
		}
		src := code(t, p)
		files[p] = src
		for _, m := range cFunction.FindAllStringSubmatch(src, -1) {
			if !strings.HasPrefix(strings.TrimSpace(m[0]), "static") {
				definedIn[m[1]] = p
			}
		}
		// Variables of the file's own, defined at file scope (gdl_dead, gdl_fork_exit_top).
		for _, m := range regexp.MustCompile(`(?m)^(?:__thread )?[A-Za-z_][\w \t*]*?\b(gdl\w+)(?:\[[^\]]*\])?\s*(?:=[^;]*)?;`).FindAllStringSubmatch(src, -1) {
			if !strings.HasPrefix(m[0], "static") && !strings.HasPrefix(m[0], "extern") {
				definedIn[m[1]] = p
			}
		}
	}
	if len(definedIn) < 10 {
		t.Fatalf("found only %d functions defined in the C files: the pattern no longer reads them", len(definedIn))
	}
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range files {
			if !yield(p) {
				return
			}
		}
	}) {
		seen := map[string]bool{}
		var refer func(name, via string)
		refer = func(name, via string) {
			if seen[name] {
				return
			}
			seen[name] = true
			if d, ok := definedIn[name]; ok && d != p && room[d] > room[p] {
				t.Errorf("%s (room %d) refers to %s of %s (room %d), a room above its own%s", p, room[p], name, d, room[d], via)
			}
			for _, n := range inlines[name] {
				refer(n, " through the inline "+name)
			}
		}
		for _, name := range cIdentifier.FindAllString(files[p], -1) {
			refer(name, "")
		}
	}
}
