package factcheck

import "testing"

// TestMarginVerbs: a margin said to have narrowed, widened, compressed or
// eroded in a year, with no figure, is held to the margin's change, as
// "contracted" and "expanded" were; unread, a wrong direction passed.
// Alphabet's operating margin went from 32.11% in 2024 to 32.03% in 2025,
// NVIDIA's gross margin from 74.99% to 71.07% in fiscal 2026.
func TestMarginVerbs(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["GOOGL"], "Alphabet's operating margin narrowed slightly in 2025.", Verified},
		{ts["GOOGL"], "Alphabet's operating margin widened in 2025.", Corrected},
		{ts["NVDA"], "NVIDIA's gross margin compressed in fiscal 2026.", Verified},
		{ts["NVDA"], "NVIDIA's gross margin widened in fiscal 2026.", Corrected},
		{ts["NVDA"], "NVIDIA's gross margin eroded in fiscal 2026.", Verified},
	})
	// Of an amount, the words say nothing the check reads.
	checkStatuses(t, []statusCase{
		{ts["GOOGL"], "Alphabet's revenue narrowed in 2025.", nil},
	})
}
