package apierr

import "testing"

func TestRejectedField(t *testing.T) {
	sent := []string{"stream_options", "strict", "response_format", "tools"}
	cases := []struct {
		name, param, code, message, raw string
		want                            string
	}{
		{"param is a path to the field", "response_format.json_schema.strict", "unknown_parameter", "Unknown parameter: 'response_format.json_schema.strict'.", "", "strict"},
		{"path in the message only", "", "", "Unknown parameter: 'response_format.json_schema.strict'.", "", "strict"},
		{"Gemini's wording", "", "", `Invalid JSON payload received. Unknown name "strict" at 'generation_config.response_schema': Cannot find field.`, "", "strict"},
		{"a parent alone is the field", "", "", "response_format.json_schema: Extra inputs are not permitted", "", "response_format"},
		{"param names another field", "messages", "unknown_parameter", "Unknown parameter: 'messages.0.name'.", "", ""},
		{"earliest named", "", "", "unknown field `stream_options`, expected one of `response_format`, `tools`", "", "stream_options"},
		{"pydantic list in the raw body", "", "", "", `{"detail":[{"type":"extra_forbidden","loc":["body","response_format","json_schema","strict"],"msg":"Extra inputs are not permitted"}]}`, "strict"},
		{"no words of rejection", "", "", "strict mode needs additionalProperties: false in response_format", "", ""},
	}
	for _, c := range cases {
		if got := RejectedField(c.param, c.code, c.message, c.raw, sent); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
