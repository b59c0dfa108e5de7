// Package strictschema checks a JSON Schema against the rules of OpenAI's
// Structured Outputs strict mode (response_format json_schema with strict
// true), and of Anthropic's structured outputs (CheckAnthropic, see
// anthropic.go), and says what the API would refuse in its own words. The fake
// server answers with it as the API does (fakellm.WithStrictSchemaCheck),
// and the formats' tests hold every schema Parley sends to it.
//
// The rules are those of OpenAI's guide, "Structured model outputs",
// section "Supported schemas"
// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
// as of 2025-2026):
//
//   - the root is an object ("type": "object"), not an anyOf;
//   - every object sets additionalProperties false and lists every
//     property in required (an optional field is a union with null);
//   - the composition keywords allOf, not, dependentRequired,
//     dependentSchemas, if, then and else are not supported, nor is
//     oneOf (only anyOf is among the supported types);
//   - for fine-tuned models (ids "ft:..."), also not minLength, maxLength,
//     pattern, format, minimum, maximum, multipleOf, patternProperties,
//     minItems and maxItems; other models take pattern, format, minimum,
//     maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems
//     and maxItems;
//   - at most 5000 object properties in all and 10 levels of nesting,
//     120,000 characters of property names, definition names, enum and
//     const values, 1000 enum values, and 15,000 characters in one string
//     enum of more than 250 values.
//
// The API names a refused keyword or object by its path from the root as
// a Python tuple, for example (answers quoted in liam-hq/liam#1162,
// 2025-04, and ai-dynamo/dynamo#15153):
//
//	Invalid schema for response_format 'review': In context=('properties', 'scores', 'items', 'properties', 'value'), 'minimum' is not permitted.
//	Invalid schema for response_format 'choice': In context=('properties', 'data'), 'oneOf' is not permitted.
//
// Those two forms, and the additionalProperties and required ones, are the
// API's words; the messages for a root that is not an object and for the
// size limits are Parley's, since no answer of the API's for them was at
// hand. Nothing here is stricter than the guide: keywords it does not
// name (description, title, enum, const, $ref) pass.
package strictschema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Limits of the guide's "Objects have limitations on nesting depth and
// size", "Limitations on total string size" and "Limitations on enum size".
const (
	MaxProperties     = 5000
	MaxDepth          = 10
	MaxStringSize     = 120_000
	MaxEnumValues     = 1000
	largeEnum         = 250
	maxLargeEnumChars = 15_000
)

// composition are the keywords strict mode refuses for every model.
var composition = []string{"allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else", "oneOf"}

// fineTunedOnly are the keywords strict mode refuses for fine-tuned models
// in addition to composition.
var fineTunedOnly = []string{"minLength", "maxLength", "pattern", "format", "minimum", "maximum", "multipleOf", "patternProperties", "minItems", "maxItems"}

// FineTuned reports whether model is an OpenAI fine-tuned model, whose id
// starts "ft:" (ft:gpt-4o-mini-2024-07-18:org::id), which strict mode holds
// to the narrower subset.
func FineTuned(model string) bool { return strings.HasPrefix(model, "ft:") }

// Check says why strict mode refuses the JSON Schema raw, as the API's
// message says it after "Invalid schema for response_format 'NAME': ", or
// returns "" when strict mode takes it. fineTuned applies the rules for
// fine-tuned models. An error is raw that is not JSON.
func Check(raw json.RawMessage, fineTuned bool) (string, error) {
	var schema any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return "", fmt.Errorf("the schema is not JSON: %w", err)
	}
	return Fault(schema, fineTuned), nil
}

// Fault is Check of a decoded schema.
func Fault(schema any, fineTuned bool) string {
	m, _ := schema.(map[string]any)
	if _, ok := m["anyOf"]; ok && m["type"] == nil {
		return "In context=(), 'anyOf' is not permitted at the root: the root must be an object."
	}
	if m == nil || m["type"] != "object" {
		return fmt.Sprintf("schema must be a JSON Schema of 'type: \"object\"', got 'type: \"%v\"'.", typeName(m))
	}
	c := checker{fineTuned: fineTuned}
	if why := c.walk(m, nil, 0); why != "" {
		return why
	}
	switch {
	case c.props > MaxProperties:
		return fmt.Sprintf("The schema has %d object properties in all; at most %d are permitted.", c.props, MaxProperties)
	case c.chars > MaxStringSize:
		return fmt.Sprintf("The total string length of property names, definition names, enum values and const values is %d; at most %d is permitted.", c.chars, MaxStringSize)
	case c.enums > MaxEnumValues:
		return fmt.Sprintf("The schema has %d enum values in all; at most %d are permitted.", c.enums, MaxEnumValues)
	}
	return ""
}

func typeName(m map[string]any) any {
	if m == nil || m["type"] == nil {
		return "None"
	}
	return m["type"]
}

type checker struct {
	fineTuned           bool
	props, chars, enums int
}

// walk says what strict mode refuses in the schema v at path, depth
// objects deep, or "", and counts what the limits count.
func (c *checker) walk(v any, path []string, depth int) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	here := pyTuple(path)
	for _, k := range composition {
		if _, ok := m[k]; ok {
			return fmt.Sprintf("In context=%s, '%s' is not permitted.", here, k)
		}
	}
	if c.fineTuned {
		for _, k := range fineTunedOnly {
			if _, ok := m[k]; ok {
				return fmt.Sprintf("In context=%s, '%s' is not permitted.", here, k)
			}
		}
	}
	if why := c.values(m, here); why != "" {
		return why
	}
	props, _ := m["properties"].(map[string]any)
	if isObject(m) {
		depth++
		if depth > MaxDepth {
			return fmt.Sprintf("In context=%s, the schema nests objects %d levels deep; at most %d are permitted.", here, depth, MaxDepth)
		}
		if ap, ok := m["additionalProperties"].(bool); !ok || ap {
			return fmt.Sprintf("In context=%s, 'additionalProperties' is required to be supplied and to be false.", here)
		}
		required := map[string]bool{}
		if rs, ok := m["required"].([]any); ok {
			for _, r := range rs {
				if s, ok := r.(string); ok {
					required[s] = true
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if !required[k] {
				return fmt.Sprintf("In context=%s, 'required' is required to be supplied and to be an array including every key in properties. Missing '%s'.", here, k)
			}
		}
		c.props += len(props)
		for _, k := range slices.Sorted(maps.Keys(props)) {
			c.chars += len(k)
			if why := c.walk(props[k], append(slices.Clip(path), "properties", k), depth); why != "" {
				return why
			}
		}
	}
	if why := c.walk(m["items"], append(slices.Clip(path), "items"), depth); why != "" {
		return why
	}
	for _, key := range []string{"anyOf", "$defs", "definitions"} {
		switch sub := m[key].(type) {
		case []any:
			for i, s := range sub {
				if why := c.walk(s, append(slices.Clip(path), key, strconv.Itoa(i)), depth); why != "" {
					return why
				}
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(sub)) {
				c.chars += len(k)
				if why := c.walk(sub[k], append(slices.Clip(path), key, k), depth); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// values counts m's enum and const values against the limits, and refuses
// a large string enum longer than the guide allows.
func (c *checker) values(m map[string]any, here string) string {
	if s, ok := m["const"].(string); ok {
		c.chars += len(s)
	}
	enum, _ := m["enum"].([]any)
	c.enums += len(enum)
	n := 0
	for _, e := range enum {
		if s, ok := e.(string); ok {
			n += len(s)
		}
	}
	c.chars += n
	if len(enum) > largeEnum && n > maxLargeEnumChars {
		return fmt.Sprintf("In context=%s, an enum of %d values has %d characters; at most %d are permitted when there are more than %d values.", here, len(enum), n, maxLargeEnumChars, largeEnum)
	}
	return ""
}

// isObject reports whether m describes an object: its type is object (or
// a union that includes it), or it has properties.
func isObject(m map[string]any) bool {
	if _, ok := m["properties"].(map[string]any); ok {
		return true
	}
	switch t := m["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	return false
}

// pyTuple writes path as Python writes a tuple of its strings: (),
// ('a',), ('a', 'b'). An index of anyOf is written as the int it is.
func pyTuple(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		if _, err := strconv.Atoi(p); err == nil && i > 0 && path[i-1] == "anyOf" {
			parts[i] = p
		} else {
			parts[i] = "'" + p + "'"
		}
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
