package openai

import "strings"

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// thinkFilter drops a <think>…</think> block that opens a reply. Reasoning
// models (DeepSeek-R1, Qwen3, QwQ) served without a reasoning parser (vLLM
// without --reasoning-parser, llama.cpp with --reasoning-format none, older
// Ollama) send their reasoning inside content rather than in
// reasoning_content; it is the model's scratchpad, not its answer, and
// braces in it would mislead the search for a JSON reply. Tags may be split
// across deltas, so undecided text is held back until it is decided.
type thinkFilter struct {
	state   int // thinkStart, thinkInside or thinkDone
	pending string
}

const (
	thinkStart = iota
	thinkInside
	thinkDone
)

// feed takes a content delta and returns the text to pass on.
func (f *thinkFilter) feed(s string) string {
	if f.state == thinkDone {
		return s
	}
	f.pending += s
	if f.state == thinkStart {
		t := strings.TrimLeft(f.pending, " \t\r\n")
		switch {
		case strings.HasPrefix(t, thinkOpen):
			f.state, f.pending = thinkInside, t[len(thinkOpen):]
		case strings.HasPrefix(thinkOpen, t):
			return "" // maybe the start of the tag: wait
		default:
			f.state = thinkDone
			out := f.pending
			f.pending = ""
			return out
		}
	}
	// Inside the block: look for its end, keeping a tail that may be the
	// start of a split closing tag.
	if i := strings.Index(f.pending, thinkClose); i >= 0 {
		out := strings.TrimLeft(f.pending[i+len(thinkClose):], " \t\r\n")
		f.state, f.pending = thinkDone, ""
		return out
	}
	if keep := len(thinkClose) - 1; len(f.pending) > keep {
		f.pending = f.pending[len(f.pending)-keep:]
	}
	return ""
}

// flush returns what is held back when the reply ends. An unclosed block
// (the reply was cut while the model was thinking) yields nothing; text
// that only looked like the start of a tag is returned.
func (f *thinkFilter) flush() string {
	if f.state == thinkStart {
		out := f.pending
		f.pending = ""
		return out
	}
	return ""
}
