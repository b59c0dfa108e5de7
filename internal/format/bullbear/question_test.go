package bullbear

import (
	"testing"

	"github.com/parleyhq/parley/internal/setup"
)

// TestQuestionWithBullbearFlags: a question given with flags only bull vs.
// bear debates read says which flags made it one and that the way to
// debate the question drops them, rather than send the user to a format
// that refuses them in turn.
func TestQuestionWithBullbearFlags(t *testing.T) {
	for _, c := range []struct {
		req  setup.Request
		want string
	}{
		{setup.Request{Topic: "Kafka or RabbitMQ?", Values: setup.Values{"hint": []string{"perf: cost"}}}, `--hint runs a bull vs. bear debate of a stock: give a ticker such as NVDA (got "Kafka or RabbitMQ?"); a question needs another format, such as --format perspectives, without --hint, and a model`},
		{setup.Request{Topic: "Kafka?", Offline: true, Values: setup.Values{"deep": true}}, "--offline and --deep run a bull vs. bear debate of a stock: give a ticker such as NVDA (got \"Kafka?\"); a question needs another format, such as --format perspectives, without --offline or --deep, and a model"},
	} {
		_, err := requested(&c.req)
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v:\n got %v\nwant %s", c.req, err, c.want)
		}
	}
}
