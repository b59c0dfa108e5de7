package strictschema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Anthropic's structured outputs (output_config.format with type
// json_schema, and tools with strict true) take a subset of JSON Schema
// too, a different one from OpenAI's. The rules are those of Anthropic's
// guide, "Structured outputs", section "JSON Schema limitations"
// (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations,
// as quoted in laravel/ai#715 and latitude-dev/latitude-llm#4676, 2026),
// and of the official Python SDK's transform_schema
// (anthropic-sdk-python, src/anthropic/lib/_parse/_transform.py), which
// rewrites a schema into what the API takes:
//
//   - every object sets additionalProperties false (the SDK sets it on
//     every object; the guide: "must be set to false for objects");
//     unlike OpenAI's, an object need not list every property in required;
//   - the numerical constraints minimum, maximum, exclusiveMinimum,
//     exclusiveMaximum and multipleOf, the string constraints minLength
//     and maxLength, and the array constraints maxItems and uniqueItems
//     are not supported; minItems only as 0 or 1;
//   - oneOf is not supported (the SDK sends it as anyOf); anyOf and allOf
//     are;
//   - a string format only among date-time, time, date, duration, email,
//     hostname, uri, ipv4, ipv6 and uuid;
//   - enum values only strings, numbers, booleans or null;
//   - $ref only to the schema's own definitions ("#/..."), not external.
//
// The API names what it refuses after the field that carries the schema,
// for example (answers quoted in agentjido/req_llm#302, 2025-12,
// agentjido/req_llm#706 and ghostlobster/memorize-everything#93, 2026):
//
//	output_format.schema: For 'integer' type, property 'minimum' is not supported
//	output_format.schema: For 'array' type, property 'maxItems' is not supported
//	output_config.format.schema: For 'array' type, 'minItems' values other than 0 or 1 are not supported
//
// Those forms are the API's words, as is "For 'object' type,
// 'additionalProperties' must be explicitly set to false" (quoted in a
// public project's source, with no thread at hand); the messages for
// oneOf, a format, an enum value and an external $ref are Parley's. The
// guide's other limits (no recursive schemas; at most 24 optional
// properties and 16 unions across a request's strict schemas) are not
// checked. A tool without strict true is not held to these rules: the
// API takes its input_schema as it is.

// anthropicUnsupported are the keywords Anthropic's structured outputs
// refuse wherever they appear.
var anthropicUnsupported = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems"}

// anthropicFormats are the string formats Anthropic's structured outputs
// take (the SDK's SupportedStringFormats).
var anthropicFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// CheckAnthropic says why Anthropic's structured outputs refuse the JSON
// Schema raw, as the API's message says it after the field's path
// ("output_config.format.schema: "), or returns "" when they take it. An
// error is raw that is not JSON.
func CheckAnthropic(raw json.RawMessage) (string, error) {
	var schema any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return "", fmt.Errorf("the schema is not JSON: %w", err)
	}
	return FaultAnthropic(schema), nil
}

// FaultAnthropic is CheckAnthropic of a decoded schema.
func FaultAnthropic(schema any) string {
	m, ok := schema.(map[string]any)
	if !ok {
		return "The schema must be a JSON object."
	}
	return anthropicWalk(m)
}

// anthropicWalk says what Anthropic's structured outputs refuse in the
// schema m, or "".
func anthropicWalk(m map[string]any) string {
	t := anthropicType(m)
	if _, ok := m["oneOf"]; ok {
		return "Schema type 'oneOf' is not supported; use 'anyOf'."
	}
	for _, k := range anthropicUnsupported {
		if _, ok := m[k]; ok {
			return fmt.Sprintf("For '%s' type, property '%s' is not supported", t, k)
		}
	}
	if v, ok := m["minItems"]; ok && v != 0.0 && v != 1.0 {
		return fmt.Sprintf("For '%s' type, 'minItems' values other than 0 or 1 are not supported", t)
	}
	if f, ok := m["format"]; ok {
		if s, _ := f.(string); !slices.Contains(anthropicFormats, s) {
			return fmt.Sprintf("For '%s' type, format '%v' is not supported; supported formats are %s", t, f, strings.Join(anthropicFormats, ", "))
		}
	}
	if enum, ok := m["enum"].([]any); ok {
		for _, e := range enum {
			switch e.(type) {
			case map[string]any, []any:
				return fmt.Sprintf("For '%s' type, enum values must be strings, numbers, booleans or null", t)
			}
		}
	}
	if ref, ok := m["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
		return fmt.Sprintf("External $ref '%s' is not supported; only references within the schema are", ref)
	}
	if isObject(m) {
		if ap, ok := m["additionalProperties"].(bool); !ok || ap {
			return "For 'object' type, 'additionalProperties' must be explicitly set to false"
		}
	}
	var subs []any
	for _, key := range []string{"properties", "$defs", "definitions"} {
		if sub, ok := m[key].(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(sub)) {
				subs = append(subs, sub[k])
			}
		}
	}
	subs = append(subs, m["items"])
	for _, key := range []string{"anyOf", "allOf"} {
		if sub, ok := m[key].([]any); ok {
			subs = append(subs, sub...)
		}
	}
	for _, s := range subs {
		if sm, ok := s.(map[string]any); ok {
			if why := anthropicWalk(sm); why != "" {
				return why
			}
		}
	}
	return ""
}

// anthropicType names m's type as the API's messages do: its type, the
// first that is not null of a union, or "schema" when it has none.
func anthropicType(m map[string]any) string {
	switch t := m["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	return "schema"
}
