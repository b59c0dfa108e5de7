package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// apiOptions are the formats' options as fields of a create request: every
// option the registry's formats declare (setup.Union), but those that name
// a file (a request never reaches the server's filesystem) and those of a
// custom kind (which only the config file gives).
type apiOptions []setup.Declared

func newAPIOptions(reg *debate.Formats) (apiOptions, error) {
	union, err := setup.Union(reg)
	if err != nil {
		return nil, err
	}
	var out apiOptions
	for _, d := range union {
		if !d.File && d.Kind != setup.Custom {
			out = append(out, d)
		}
	}
	return out, nil
}

// byField is the option whose field is name.
func (o apiOptions) byField(name string) (setup.Declared, bool) {
	i := slices.IndexFunc(o, func(d setup.Declared) bool { return d.JSON() == name })
	if i < 0 {
		return setup.Declared{}, false
	}
	return o[i], true
}

// fieldOf is the field of the option whose flag is name, "" for none.
func (o apiOptions) fieldOf(name string) string {
	if d, ok := o.byName(name); ok {
		return d.JSON()
	}
	return ""
}

// fieldOrder is the order of a create request's fields in its JSON as the
// server wrote it before the formats declared their options: the digest of
// a request sent with an Idempotency-Key is of that JSON (requestKey), and
// so a request sent again across an upgrade is the same request. The
// fields of options declared since come after these, in the registry's
// order.
func fieldOrder() []string {
	return []string{"format", "topic", "perspectives", "max_rounds", "no_checkpoints", "agents", "rounds", "perspective",
		"deep", "framework", "hints", "offline", "snapshot", "risk", "provider", "model", "model_for", "turn_budget", "debate_budget"}
}

// fields are a create request's fields, in the order of its JSON.
func (o apiOptions) fields() []string {
	all := fieldNames(&createFields{})
	for _, d := range o {
		all = append(all, d.JSON())
	}
	var out []string
	for _, f := range fieldOrder() {
		if slices.Contains(all, f) {
			out = append(out, f)
		}
	}
	for _, f := range all {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// marshal is c as JSON, its fields in order (fields), those with a zero
// value left out.
func (o apiOptions) marshal(c CreateRequest) ([]byte, error) {
	b, err := json.Marshal(createFields(c))
	if err != nil {
		return nil, err
	}
	vals := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &vals); err != nil {
		return nil, err
	}
	for name, v := range c.Options {
		d, ok := o.byName(name)
		if !ok {
			return nil, fmt.Errorf("option %s: no format's API field", name)
		}
		if vals[d.JSON()], err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for _, f := range o.fields() {
		v, ok := vals[f]
		if !ok {
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(f)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

func (o apiOptions) byName(name string) (setup.Declared, bool) {
	i := slices.IndexFunc(o, func(d setup.Declared) bool { return d.Name == name })
	if i < 0 {
		return setup.Declared{}, false
	}
	return o[i], true
}

// createFields are the fields of a create request of every format: its
// own, without the formats' options.
type createFields CreateRequest

// createBody decodes a create request's body: its fields of every format
// (createFields), and each option's field by the option's kind. A zero
// value (0, false, "", []) is an option not given, as it always was: the
// format's default applies.
type createBody struct {
	c    *CreateRequest
	opts apiOptions
}

// jsonFields are the body's fields, for decodeJSON's messages.
func (b createBody) jsonFields() []string { return b.opts.fields() }

// UnmarshalJSON decodes the fields in the order the body gives them, so
// that the first field that is wrong is the one named.
func (b createBody) UnmarshalJSON(data []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return err
	}
	general := fieldNames(&createFields{})
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if slices.Contains(general, name) {
			// One field at a time, into the fields of every format, which
			// the decoder names in its errors.
			one, _ := json.Marshal(map[string]json.RawMessage{name: raw})
			if err := json.Unmarshal(one, (*createFields)(b.c)); err != nil {
				return err
			}
			continue
		}
		d, ok := b.opts.byField(name)
		if !ok {
			return fmt.Errorf("json: unknown field %q", name)
		}
		v, err := decodeOption(d, raw)
		if err != nil {
			return err
		}
		if v != nil {
			if b.c.Options == nil {
				b.c.Options = setup.Values{}
			}
			b.c.Options[d.Name] = v
		}
	}
	return nil
}

// decodeOption is an option's value from its field's JSON, nil for a zero
// value or null (not given); a value of another JSON type is an
// *json.UnmarshalTypeError naming the field.
func decodeOption(d setup.Declared, raw json.RawMessage) (any, error) {
	var dst any
	switch d.Kind {
	case setup.Int:
		dst = new(int)
	case setup.Bool:
		dst = new(bool)
	case setup.String:
		dst = new(string)
	case setup.Strings:
		dst = new([]string)
	default:
		return nil, fmt.Errorf("json: unknown field %q", d.JSON())
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Named by the option's field, as the decoder names a field
			// of a struct.
			return nil, &json.UnmarshalTypeError{Value: te.Value, Type: te.Type, Offset: te.Offset, Field: d.JSON()}
		}
		return nil, err
	}
	v := reflect.ValueOf(dst).Elem()
	if v.IsZero() || (v.Kind() == reflect.Slice && v.Len() == 0) {
		return nil, nil
	}
	return v.Interface(), nil
}
