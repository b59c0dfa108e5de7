package apierr

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ToolArgs returns a tool call's arguments as assembled from a stream,
// args, as the JSON object a call's Args holds: none at all (a tool
// without parameters streams none) and null are {}, and an object encoded
// twice, a JSON string holding it (as some compatible layers send
// arguments), is the object. Anything else that is not a JSON object
// fails, naming the call (name, id).
func ToolArgs(name, id, args string) (json.RawMessage, error) {
	s := strings.TrimSpace(args)
	if s == "" {
		return json.RawMessage(`{}`), nil
	}
	var inner string
	if strings.HasPrefix(s, `"`) && json.Unmarshal([]byte(s), &inner) == nil && strings.HasPrefix(strings.TrimSpace(inner), "{") {
		s = strings.TrimSpace(inner)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return nil, fmt.Errorf("tool call %s (%s): arguments are not a JSON object: %w", name, id, err)
	}
	if obj == nil {
		// "null": no arguments, which the call's Args says as {} (a
		// tool reads null as no object at all).
		return json.RawMessage(`{}`), nil
	}
	return json.RawMessage(s), nil
}
