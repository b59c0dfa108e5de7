// Package yamlfile words the errors of a YAML file the user wrote (the
// config file, a perspectives catalog, a crux personas file) in the file's
// terms. The decoder's own words name Go types ("field colour not found in
// type perspectives.Perspective"), which mean nothing to the file's author.
package yamlfile

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Problems says what is wrong with a file the YAML decoder refused when
// decoding into a value of type root, line by line: an unknown key is named
// with the keys its block takes (read from the yaml tags, so that the list
// is the one the decoder checks against), a value of the wrong kind with
// the kind wanted. explained is false for an error that is not the
// decoder's refusal of the file's keys or values (a syntax error, which the
// decoder words with its line): it comes back as it was. data is the file,
// from which a value of the wrong kind is named with its key.
func Problems(err error, root reflect.Type, data []byte) (out error, explained bool) {
	var le *yaml.LoadErrors
	if !errors.As(err, &le) {
		return err, false
	}
	blocks := blocksOf(root)
	keys := keysAt(data)
	var msgs []string
	for _, e := range le.Errors {
		msg := e.Message
		if m := unknownFieldRe.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("unknown key %q", m[1])
			if b, ok := blocks[m[2]]; ok {
				msg += fmt.Sprintf(" (the keys %s: %s)", b.where, strings.Join(b.keys, ", "))
			}
		} else if m := constructRe.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("%q is not %s", m[1], kindWanted(m[2]))
			if m := collectionRe.FindStringSubmatch(e.Message); m != nil {
				// A list or a block has no value to quote.
				given := "a list"
				if m[1] == "map" {
					given = "a block of keys"
				}
				msg = fmt.Sprintf("%s is not %s", given, kindWanted(m[2]))
			}
			if k := keys[e.Mark.Line<<20|e.Mark.Column]; k != "" {
				msg = k + ": " + msg
			}
		}
		if e.Mark.Line > 0 {
			msg = fmt.Sprintf("line %d: %s", e.Mark.Line, msg)
		}
		msgs = append(msgs, msg)
	}
	return errors.New(strings.Join(msgs, "; ")), true
}

// keysAt maps where each value of the file's blocks starts (line<<20 |
// column, as the decoder marks it) to its key, so that a bad value is named
// by the key the author wrote; nil for a file that does not parse.
func keysAt(data []byte) map[int]string {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := map[int]string{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				v := n.Content[i+1]
				out[v.Line<<20|v.Column] = n.Content[i].Value
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	return out
}

// kindWanted names the kind of value a Go type takes, in the file's terms.
func kindWanted(goType string) string {
	switch {
	case strings.HasSuffix(goType, "time.Duration"):
		return "a duration such as 2m or 90s"
	case strings.Contains(goType, "int"):
		return "a whole number"
	case strings.Contains(goType, "float"):
		return "a number"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map[") || strings.HasPrefix(goType, "struct"):
		return "a block of keys"
	case goType == "string":
		return "text"
	}
	return "a value of another kind"
}

var (
	unknownFieldRe = regexp.MustCompile(`^field (\S+) not found in type (.+)$`)
	constructRe    = regexp.MustCompile("^cannot construct !!(?:\\w+ `(.*)`|seq|map) into (.+)$")
	collectionRe   = regexp.MustCompile(`^cannot construct !!(seq|map) into (.+)$`)
)

// block is a block of the file: where it is and its keys.
type block struct {
	where string
	keys  []string
}

// blocksOf maps the Go type of each block of a file decoded into root to
// where the block is and its keys.
func blocksOf(root reflect.Type) map[string]block {
	out := map[string]block{}
	var walk func(t reflect.Type, where string)
	walk = func(t reflect.Type, where string) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == reflect.TypeFor[yaml.Node]() {
			return
		}
		if _, seen := out[t.String()]; seen {
			return
		}
		b := block{where: where}
		for i := range t.NumField() {
			if name := keyOf(t.Field(i)); name != "" {
				b.keys = append(b.keys, name)
			}
		}
		out[t.String()] = b
		for i := range t.NumField() {
			if name := keyOf(t.Field(i)); name != "" {
				walk(t.Field(i).Type, "under "+name)
			}
		}
	}
	walk(root, "at the top level")
	return out
}

// keyOf is a struct field's key in the file, "" for a field the file
// cannot set.
func keyOf(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}
