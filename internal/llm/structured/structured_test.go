package structured

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain", `{"a":1}`, `{"a":1}`},
		{"fenced", "Here you go:\n```json\n{\"a\": 1,\n \"b\": [1,2]}\n```\nHope it helps.", `{"a":1,"b":[1,2]}`},
		{"fence without tag", "```\n{\"a\":1}\n```", `{"a":1}`},
		{"prose around", `I think {"winner": "bull"} is right.`, `{"winner":"bull"}`},
		{"braces in strings", `{"s": "a } tricky { one", "n": {"x": "\"}"}}`, `{"s":"a } tricky { one","n":{"x":"\"}"}}`},
		{"prose braces before", `Use {placeholders} like this: {"ok": true}`, `{"ok":true}`},
		{"first of two", `{"a":1} and {"b":2}`, `{"a":1}`},
	}
	for _, c := range cases {
		got, err := Extract(c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: Extract = %s, %v; want %s", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{"no json here", `{"unterminated": `, "[1,2,3]", `{broken: json}`} {
		if got, err := Extract(bad); !errors.Is(err, ErrNoJSON) {
			t.Errorf("Extract(%q) = %s, %v; want ErrNoJSON", bad, got, err)
		}
	}
}

const verdictSchema = `{
  "type": "object",
  "properties": {
    "winner": {"type": "string", "enum": ["bull", "bear"]},
    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    "rounds": {"type": "integer"},
    "reasons": {"type": "array", "items": {"type": "string", "minLength": 3}, "minItems": 1},
    "note": {"type": ["string", "null"]}
  },
  "required": ["winner", "confidence", "reasons"],
  "additionalProperties": false
}`

func TestValidate(t *testing.T) {
	s, err := ParseSchema(json.RawMessage(verdictSchema))
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(json.RawMessage(`{"winner":"bear","confidence":1,"reasons":["rates"],"note":null,"rounds":3}`), s); err != nil {
		t.Errorf("valid document: %v", err)
	}
	cases := []struct {
		doc  string
		want []string
	}{
		{`{"winner":"bull","confidence":"high","reasons":["demand"]}`, []string{`field confidence: want number in [0,1], got "high"`}},
		{`{"winner":"bull","confidence":1.5,"reasons":["demand"]}`, []string{`field confidence: want number in [0,1], got 1.5`}},
		{`{"winner":"draw","confidence":0.5,"reasons":["ok!"]}`, []string{`field winner: want one of "bull", "bear", got "draw"`}},
		{`{"confidence":0.5}`, []string{"field reasons: missing (required)", "field winner: missing (required)"}},
		{`{"winner":"bull","confidence":0.5,"reasons":["ok", 7],"extra":1,"rounds":2.5}`, []string{
			"field extra: not allowed (unknown field)",
			"field reasons[0]: want at least 3 characters, got 2",
			"field reasons[1]: want string, got 7",
			"field rounds: want integer, got 2.5",
		}},
		{`{"winner":"bull","confidence":0.5,"reasons":[]}`, []string{"field reasons: want at least 1 items, got 0"}},
		{`["not", "an", "object"]`, []string{`document: want object, got an array ["not","an","object"]`}},
	}
	for _, c := range cases {
		err := Validate(json.RawMessage(c.doc), s)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a ValidationError", c.doc, err)
			continue
		}
		var got []string
		for _, f := range ve.Fields {
			got = append(got, f.Error())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.doc, got, c.want)
		}
	}
}

func TestRepairPrompt(t *testing.T) {
	s, _ := ParseSchema(json.RawMessage(verdictSchema))
	_, err := ExtractAndValidate("Sure!\n```json\n{\"winner\":\"bull\",\"confidence\":\"high\",\"reasons\":[\"demand\"]}\n```", s)
	p := RepairPrompt(err)
	for _, want := range []string{`field confidence: want number in [0,1], got "high"`, "only the corrected JSON object"} {
		if !strings.Contains(p, want) {
			t.Errorf("repair prompt lacks %q:\n%s", want, p)
		}
	}
	_, err = ExtractAndValidate("I refuse to answer in JSON.", s)
	if p := RepairPrompt(err); !strings.Contains(p, "did not contain a JSON object") {
		t.Errorf("repair prompt for no JSON:\n%s", p)
	}
}
