package xbrl

import (
	"bytes"
	"fmt"
	"strconv"
)

// outline reads the document's top level: its cik and entity name, and the
// position of each us-gaap and dei tag's object. Tags' contents are only
// bracket-matched (skipOutline): each is checked when decodeTag reads it.
func (cf *CompanyFacts) outline(r *reader, cik *cikNumber) error {
	if err := r.open('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		key, escaped, done, err := r.member(first)
		if err != nil {
			return err
		}
		if done {
			return r.end()
		}
		name, err := keyString(key, escaped)
		if err != nil {
			return err
		}
		switch name {
		case "cik":
			lit, err := r.value()
			if err != nil {
				return err
			}
			if err := cik.UnmarshalJSON(lit); err != nil { // a number or a numeric string
				return err
			}
		case "entityName":
			if r.peek() != '"' {
				if err := r.skipAny(); err != nil {
					return err
				}
				continue
			}
			lit, escaped, err := r.str()
			if err != nil {
				return err
			}
			if cf.EntityName, err = keyString(lit, escaped); err != nil {
				return fmt.Errorf("entityName: %w", err)
			}
		case "facts":
			if c := r.peek(); c != '{' {
				if r.pos >= len(r.data) {
					return r.truncated()
				}
				return r.errorf("facts is %s, not an object", describe(c))
			}
			if err := cf.outlineFacts(r); err != nil {
				return err
			}
		default:
			if err := r.skipAny(); err != nil {
				return err
			}
		}
	}
}

// outlineFacts indexes the tags of the taxonomies this package uses.
func (cf *CompanyFacts) outlineFacts(r *reader) error {
	r.pos++ // '{'
	for first := true; ; first = false {
		key, escaped, done, err := r.member(first)
		if err != nil || done {
			return err
		}
		taxonomy, err := keyString(key, escaped)
		if err != nil {
			return err
		}
		// Every taxonomy is indexed, though figures are read from us-gaap
		// and dei only: what else a filer reports (ifrs-full) says why its
		// figures are unavailable (CompanyFacts.Unavailable).
		if r.peek() != '{' {
			if err := r.skipAny(); err != nil {
				return err
			}
			continue
		}
		r.pos++
		tags := map[string]*lazyTag{}
		cf.taxonomies[taxonomy] = tags
		for first := true; ; first = false {
			key, escaped, done, err := r.member(first)
			if err != nil {
				return err
			}
			if done {
				break
			}
			tag, err := keyString(key, escaped)
			if err != nil {
				return fmt.Errorf("%s: tag name: %w", taxonomy, err)
			}
			if c := r.peek(); c != '{' {
				if r.pos >= len(r.data) {
					return r.truncated()
				}
				return r.errorf("%s:%s is %s, not an object", taxonomy, tag, describe(c))
			}
			start := r.pos
			if err := r.skipOutline(); err != nil {
				return fmt.Errorf("%s:%s: %w", taxonomy, tag, err)
			}
			tags[tag] = &lazyTag{raw: r.data[start:r.pos], off: r.base + start}
		}
	}
}

// skipAny moves past a value the outline does not use: containers at the
// outline's speed, scalars strictly.
func (r *reader) skipAny() error {
	if c := r.peek(); c == '{' || c == '[' {
		return r.skipOutline()
	}
	return r.skipStrict(0)
}

// decodeTag decodes one tag's object, {"label": ..., "description": ...,
// "units": {"USD": [fact, ...], ...}}, checking its syntax as it goes. It
// accepts what encoding/json would decode into
// struct{ Units map[string][]rawFact `json:"units"` } (keys match
// case-insensitively, null leaves a value zero, a repeated key's last value
// wins) and rejects what it would reject, saying where and why.
func decodeTag(r *reader) (map[string][]rawFact, error) {
	if err := r.open('{'); err != nil {
		return nil, err
	}
	var units map[string][]rawFact
	for first := true; ; first = false {
		key, escaped, done, err := r.member(first)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
		if ok, err := keyIs(key, escaped, "units"); err != nil {
			return nil, err
		} else if !ok {
			if err := r.skipStrict(1); err != nil {
				return nil, err
			}
			continue
		}
		switch r.peek() {
		case '{':
		case 'n':
			if _, err := r.literal(); err != nil {
				return nil, err
			}
			units = nil
			continue
		default:
			return nil, fmt.Errorf("units: %w", r.unexpected("an object of unit names to arrays of facts"))
		}
		if units == nil {
			units = map[string][]rawFact{}
		}
		if err := decodeUnits(r, units); err != nil {
			return nil, fmt.Errorf("units.%w", err)
		}
	}
	return units, r.end()
}

// decodeUnits decodes {"USD": [fact, ...], ...} into units.
func decodeUnits(r *reader, units map[string][]rawFact) error {
	r.pos++ // '{'
	for first := true; ; first = false {
		key, escaped, done, err := r.member(first)
		if err != nil || done {
			return err
		}
		unit, err := keyString(key, escaped)
		if err != nil {
			return err
		}
		switch r.peek() {
		case '[':
		case 'n':
			if _, err := r.literal(); err != nil {
				return err
			}
			units[unit] = nil
			continue
		default:
			return fmt.Errorf("%s: %w", unit, r.unexpected("an array of facts"))
		}
		r.pos++
		var facts []rawFact
		for i := 0; ; i++ {
			done, err := r.element(i == 0)
			if err != nil {
				return fmt.Errorf("%s: %w", unit, err)
			}
			if done {
				break
			}
			facts = append(facts, rawFact{})
			if err := decodeFact(r, &facts[i]); err != nil {
				return fmt.Errorf("%s[%d]: %w", unit, i, err)
			}
		}
		units[unit] = facts
	}
}

// factField is a field of rawFact, as named in the JSON.
type factField int

const (
	fieldOther factField = iota
	fieldStart
	fieldEnd
	fieldVal
	fieldAccn
	fieldForm
	fieldFiled
	fieldFY
)

var factFields = [...]struct {
	name  string
	field factField
}{{"start", fieldStart}, {"end", fieldEnd}, {"val", fieldVal}, {"accn", fieldAccn}, {"form", fieldForm}, {"filed", fieldFiled}, {"fy", fieldFY}}

// fieldOf maps a key to a rawFact field: exactly, then case-insensitively as
// encoding/json does.
func fieldOf(key []byte, escaped bool) (factField, error) {
	name := key[1 : len(key)-1]
	if escaped {
		s, err := keyString(key, escaped)
		if err != nil {
			return fieldOther, err
		}
		name = []byte(s)
	}
	switch string(name) {
	case "start":
		return fieldStart, nil
	case "end":
		return fieldEnd, nil
	case "val":
		return fieldVal, nil
	case "accn":
		return fieldAccn, nil
	case "form":
		return fieldForm, nil
	case "filed":
		return fieldFiled, nil
	case "fy":
		return fieldFY, nil
	case "fp", "frame":
		return fieldOther, nil
	}
	for _, f := range factFields {
		if bytes.EqualFold(name, []byte(f.name)) {
			return f.field, nil
		}
	}
	return fieldOther, nil
}

// keyIs reports whether key names want, as encoding/json would match it.
func keyIs(key []byte, escaped bool, want string) (bool, error) {
	name := key[1 : len(key)-1]
	if escaped {
		s, err := keyString(key, escaped)
		if err != nil {
			return false, err
		}
		name = []byte(s)
	}
	return bytes.EqualFold(name, []byte(want)), nil
}

// decodeFact decodes one fact object into f, which is zero.
func decodeFact(r *reader, f *rawFact) error {
	switch r.peek() {
	case '{':
	case 'n':
		_, err := r.literal()
		return err
	default:
		return r.unexpected("a fact (an object)")
	}
	r.pos++
	for first := true; ; first = false {
		key, escaped, done, err := r.member(first)
		if err != nil || done {
			return err
		}
		field, err := fieldOf(key, escaped)
		if err != nil {
			return err
		}
		if field == fieldOther {
			if err := r.skipStrict(2); err != nil {
				return err
			}
			continue
		}
		if field == fieldVal {
			if err := decodeVal(r, &f.Val); err != nil {
				return fmt.Errorf("val: %w", err)
			}
			continue
		}
		// The other fields decode themselves from their JSON text, as they
		// would under encoding/json.
		pos := r.pos
		lit, err := r.value()
		if err != nil {
			return err
		}
		switch field {
		case fieldStart:
			err = f.Start.UnmarshalJSON(lit)
		case fieldEnd:
			err = f.End.UnmarshalJSON(lit)
		case fieldAccn:
			err = f.Accn.UnmarshalJSON(lit)
		case fieldForm:
			err = f.Form.UnmarshalJSON(lit)
		case fieldFiled:
			err = f.Filed.UnmarshalJSON(lit)
		case fieldFY:
			err = decodeFY(lit, &f.FY)
		}
		if err != nil {
			return fmt.Errorf("%s (at byte %d): %w", factFields[field-1].name, r.base+pos, err)
		}
	}
}

// decodeFY decodes a fact's fy, an integer or null, as encoding/json
// decodes it into an int16.
func decodeFY(lit []byte, fy *int16) error {
	if string(lit) == "null" {
		return nil
	}
	n, err := strconv.ParseInt(string(lit), 10, 16)
	if err != nil {
		return fmt.Errorf("%s is not a fiscal year: %w", lit, err)
	}
	*fy = int16(n)
	return nil
}

// decodeVal decodes a fact's value: a number, or null for none.
func decodeVal(r *reader, v *float64) error {
	switch c := r.peek(); {
	case c == '-' || (c >= '0' && c <= '9'):
	case c == 'n':
		_, err := r.literal()
		return err
	default:
		return r.unexpected("a number")
	}
	pos := r.pos
	num, err := r.number()
	if err != nil {
		return err
	}
	if x, ok := smallInt(num); ok {
		*v = x
		return nil
	}
	x, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		r.pos = pos
		return r.errorf("%s does not fit a float64", num)
	}
	*v = x
	return nil
}

// smallInt converts an integer of at most 15 digits, which a float64 holds
// exactly, without strconv: most reported values are whole numbers.
func smallInt(num []byte) (float64, bool) {
	neg := num[0] == '-'
	if neg {
		num = num[1:]
	}
	if len(num) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range num {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	x := float64(n)
	if neg {
		x = -x
	}
	return x, true
}
