package yamlfile

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"
)

type item struct {
	Name  string        `yaml:"name"`
	Count int           `yaml:"count,omitempty"`
	Wait  time.Duration `yaml:"wait"`
}

type file struct {
	Items []item `yaml:"items"`
	Flag  bool   `yaml:"flag"`
	Inner struct {
		Deep []item `yaml:"deep"`
		Note string `yaml:"note"`
	} `yaml:"inner"`
	Ignored string `yaml:"-"`
}

func decode(t *testing.T, src string) (error, bool) {
	t.Helper()
	var f file
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	err := dec.Decode(&f)
	if err == nil {
		t.Fatalf("%q decoded", src)
	}
	return Problems(err, reflect.TypeFor[file](), []byte(src))
}

// TestProblems: the decoder's refusals in the file's terms: the line, the
// key with its block's keys (from the yaml tags, nested blocks too), the
// kind of value wanted; never a Go type.
func TestProblems(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"top-level key", "flg: true\n", `line 1: unknown key "flg" (the keys at the top level: items, flag, inner)`},
		{"list item key", "items:\n  - name: a\n    colour: red\n", `line 3: unknown key "colour" (the keys under items: name, count, wait)`},
		{"nested block key", "inner:\n  bogus: 1\n", `line 2: unknown key "bogus" (the keys under inner: deep, note)`},
		{"values", "flag: maybe\nitems:\n  - count: many\n    wait: soon\n", `line 1: flag: "maybe" is not true or false; line 3: count: "many" is not a whole number; line 4: wait: "soon" is not a duration such as 2m or 90s`},
		{"a list wanted", "items: 3\n", `line 1: items: "3" is not a list`},
		// A list or a block where one value goes comes with no value
		// to quote ("cannot construct !!seq into string").
		{"a list given for text", "inner:\n  note: [a, b]\n", `line 2: note: a list is not text`},
		{"a block given for a number", "items:\n  - count: {a: 1}\n", `line 2: count: a block of keys is not a whole number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err, ok := decode(t, tc.src)
			if !ok || err.Error() != tc.want {
				t.Errorf("got %v (explained %v)\nwant %s", err, ok, tc.want)
			}
			if strings.Contains(err.Error(), "yamlfile.") || strings.Contains(err.Error(), "!!") {
				t.Errorf("names a Go or YAML type: %v", err)
			}
		})
	}
	// A syntax error is the decoder's own, with its line.
	if err, ok := decode(t, "items: [a\n"); ok || !strings.Contains(err.Error(), "line") {
		t.Errorf("syntax error: %v (explained %v), want the decoder's own", err, ok)
	}
}
