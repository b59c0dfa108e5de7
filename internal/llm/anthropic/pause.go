package anthropic

import (
	"errors"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/parleyhq/parley/internal/llm"
)

// stopPauseTurn is the stop_reason of a turn the API paused: a long one
// (a server-side tool loop that reached its limit of iterations) is ended
// with it part way, and goes on when the paused content is sent back, as
// the last, assistant, message of the same request. What came is not the
// whole reply: read as the end of the turn, the turn was kept cut short.
const stopPauseTurn = "pause_turn"

// maxPauses bounds how many times one call continues a paused turn: a
// server that pauses for ever must not have a call run, and bill, without
// end.
const maxPauses = 8

// content keeps what a message's stream carried, so that a paused turn
// can send it back as it came (see stopPauseTurn): thinking blocks with
// their signatures, server tool blocks, text and tool calls.
type content struct {
	msg sdk.Message
	err error
	// deltas holds the text and thinking deltas of each block, apart from
	// msg: the SDK's accumulator adds each delta to a string, which is
	// quadratic in the length of a long reply.
	deltas map[int64]*strings.Builder
	// at is where the block a server numbered so is in msg: the API
	// numbers blocks 0, 1, 2…, as the SDK's accumulator demands, and
	// compatible servers may not (a first block numbered 1).
	at map[int64]int64
}

// add reads one event of the stream.
func (c *content) add(ev sdk.MessageStreamEventUnion) {
	if c.err != nil {
		return
	}
	switch ev.Type {
	case "content_block_start":
		if c.at == nil {
			c.at = map[int64]int64{}
		}
		c.at[ev.Index] = int64(len(c.msg.Content))
		ev.Index = c.at[ev.Index]
	case "content_block_delta", "content_block_stop":
		at, ok := c.at[ev.Index]
		if !ok {
			c.err = fmt.Errorf("a %s for content block %d, which did not start", ev.Type, ev.Index)
			return
		}
		ev.Index = at
	}
	if ev.Type == "content_block_delta" && (ev.Delta.Type == "text_delta" || ev.Delta.Type == "thinking_delta") {
		if c.deltas == nil {
			c.deltas = map[int64]*strings.Builder{}
		}
		b := c.deltas[ev.Index]
		if b == nil {
			b = &strings.Builder{}
			c.deltas[ev.Index] = b
		}
		b.WriteString(ev.Delta.Text)
		b.WriteString(ev.Delta.Thinking)
		return
	}
	c.err = c.msg.Accumulate(ev)
}

// blocks returns the content as the blocks of the assistant message that
// continues the turn. Empty text blocks and a last text block's trailing
// white space are left out, which the API refuses in a request; so is
// thinking without a signature (a compatible server's), which the API
// would refuse and which is not the answer.
func (c *content) blocks() ([]sdk.ContentBlockParamUnion, error) {
	if c.err != nil {
		return nil, c.err
	}
	var out []sdk.ContentBlockParamUnion
	lastText := -1
	for i, b := range c.msg.Content {
		more := ""
		if d := c.deltas[int64(i)]; d != nil {
			more = d.String()
		}
		switch b.Type {
		case "text":
			if t := b.Text + more; t != "" {
				lastText = len(out)
				out = append(out, sdk.NewTextBlock(t))
			}
		case "thinking":
			if b.Signature != "" {
				out = append(out, sdk.NewThinkingBlock(b.Signature, b.Thinking+more))
			}
		default:
			out = append(out, b.ToParam())
		}
	}
	if n := len(out); n > 0 && lastText == n-1 {
		if t := strings.TrimRight(out[n-1].OfText.Text, " \t\r\n"); t != "" {
			out[n-1].OfText.Text = t
		} else {
			out = out[:n-1]
		}
	}
	if len(out) == 0 {
		return nil, errors.New("it sent no content to continue from")
	}
	return out, nil
}

// pauseError is the error for a paused turn that cannot go on: the
// server paused it too many times, or its content could not be read back.
func (p *Provider) pauseError(why error) *llm.Error {
	return &llm.Error{Provider: p.Name(), Kind: llm.ErrServer,
		Err: fmt.Errorf("the server paused the turn (stop_reason pause_turn) and it cannot be continued: %w; what came is not the whole reply", why)}
}
