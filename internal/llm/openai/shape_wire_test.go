package openai_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A chunk whose choices, or a choice's delta, came of another type than
// the API's fails as malformed, saying which field, and is asked once
// more: the SDK read the field as absent, the text in it was lost, and the
// rest of the reply (nothing at all, when every chunk was so) stood as
// whole. An empty value of another type carries nothing and is passed
// over.
func TestChunkOfAnotherShape(t *testing.T) {
	for name, c := range map[string]struct{ chunk, field string }{
		"choices an object": {`{"choices":{"index":0,"delta":{"content":"Hel"}}}`, `"choices"`},
		"choices a string":  {`{"choices":"Hel"}`, `"choices"`},
		"delta a string":    {`{"choices":[{"index":0,"delta":"Hel"}]}`, `"delta"`},
		"delta a list":      {`{"choices":[{"index":0,"delta":[{"content":"Hel"}]}]}`, `"delta"`},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(chunk(c.chunk)+chunk(c2)+chunk(stop)+chunk(use)+done)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || e.Tries != 2 || !strings.Contains(err.Error(), c.field) {
				t.Fatalf("got %+v, %v; want a malformed chunk naming %s", r, err, c.field)
			}
		})
	}
	for name, empty := range map[string]string{
		"choices {}": `{"choices":{},"usage":null}`,
		`delta ""`:   `{"choices":[{"index":0,"delta":""}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(chunk(c1)+chunk(empty)+chunk(c2)+chunk(stop)+chunk(use)+done)))
			if err != nil || r.Text != "Hello" {
				t.Fatalf("got %+v, %v; want the reply", r, err)
			}
		})
	}
}
