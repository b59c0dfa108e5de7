package openai

import "strings"

// messageText reads the text of the messages a server streams in place of
// deltas (see otherDelta). Such a message holds either the text that is
// new (as Ollama's own API streams its messages) or the whole text so far
// (as servers that stream chat.completion objects do), and a message alone
// does not say which: a message that starts with the one before it is the
// text so far grown, or new text that happens to start so, as when a
// model repeats itself ("ha", "ha", "ha"). Read message by message, by
// prefix, a repeated word was taken for the text so far and dropped. The
// reading is decided once per stream, and the text held until it is:
//
//   - a message that does not start with the one before it is new text:
//     the text so far cannot shrink or change;
//   - a message that grows the one before it, itself at least minSoFar
//     bytes, is the text so far: new text that repeats the whole reply so
//     far, that long, and more, is not what a model's stream sends;
//   - at the end of the reply (its finish_reason, or the stream's end,
//     or a delta after the messages), messages that grew are the text so
//     far, and messages that only repeat themselves are new text (a
//     server that sends the text so far sends more of it).
type messageText struct {
	reading messageReading
	last    string          // the text of the message before, when undecided or the text so far
	held    strings.Builder // the messages' text read as new, while undecided
	grew    bool            // a message grew the one before it
	any     bool            // a message with text came
}

type messageReading int

const (
	undecided messageReading = iota
	newText
	textSoFar
)

// minSoFar is how long the text so far must be before a message that
// repeats and grows it decides the reading (see messageText).
const minSoFar = 32

// maxUndecided bounds the text held while the reading is undecided: past
// it, the reading is decided as at the end.
const maxUndecided = 1 << 20

// add reads the text s of a message and returns what is new to pass on.
func (m *messageText) add(s string) string {
	switch m.reading {
	case newText:
		return s
	case textSoFar:
		if rest, ok := strings.CutPrefix(s, m.last); ok {
			m.last = s
			return rest
		}
		// Not the text so far after all (a server that started again):
		// passed on whole, as the text that follows.
		m.last += s
		return s
	}
	if s == "" {
		return ""
	}
	if !m.any {
		m.any, m.last = true, s
		m.held.WriteString(s)
		return ""
	}
	if !strings.HasPrefix(s, m.last) {
		m.reading = newText
		m.held.WriteString(s)
		return m.release()
	}
	if len(s) > len(m.last) {
		m.grew = true
		if len(m.last) >= minSoFar {
			m.reading, m.last = textSoFar, s
			m.held.Reset()
			return s
		}
	}
	m.last = s
	m.held.WriteString(s)
	if m.held.Len() > maxUndecided {
		return m.end()
	}
	return ""
}

// end decides the reading if it is not yet, and returns the text held.
func (m *messageText) end() string {
	if m.reading != undecided || !m.any {
		return ""
	}
	if m.grew {
		m.reading = textSoFar
		m.held.Reset()
		return m.last
	}
	m.reading = newText
	return m.release()
}

// release returns the text held, and holds none.
func (m *messageText) release() string {
	s := m.held.String()
	m.held.Reset()
	return s
}
