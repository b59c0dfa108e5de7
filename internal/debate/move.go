package debate

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/parleyhq/parley/internal/llm/structured"
)

// DecodeMove reads a structured reply into v: the first JSON object of the
// text (code fences and prose around it are tolerated), decoded strictly, so
// that a misnamed field is caught. Errors wrap ErrRepairable, so that the
// runner shows the model what was wrong and asks once more.
func DecodeMove(text string, v any) error {
	obj, err := structured.Extract(text)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrRepairable, err)
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrRepairable, err)
	}
	return nil
}
