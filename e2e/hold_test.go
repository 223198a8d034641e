package e2e

import (
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// heldRequests is a tab's requests held by the browser (holdRequests).
type heldRequests struct {
	p             *page
	pattern, what string
	ids           chan fetch.RequestID
}

// holdRequests has the browser hold the tab's requests whose URL matches
// pattern (the Fetch domain's wildcards) until they are let go; what
// says what the page asks with them, for failures ("who is looking (GET
// /api/account)").
func (p *page) holdRequests(pattern, what string) *heldRequests {
	p.t.Helper()
	h := &heldRequests{p: p, pattern: pattern, what: what, ids: make(chan fetch.RequestID, 8)}
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			h.ids <- e.RequestID
		}
	}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}}); err != nil {
		p.t.Fatalf("hold the requests of %s: %v", pattern, err)
	}
	return h
}

// next waits for the page to make a held request and returns it.
func (h *heldRequests) next() fetch.RequestID {
	h.p.t.Helper()
	select {
	case id := <-h.ids:
		return id
	case <-time.After(10 * time.Second):
		h.p.t.Fatalf("the page did not ask %s", h.what)
		return ""
	}
}

// release lets the held request id go on to the server.
func (h *heldRequests) release(id fetch.RequestID) {
	h.p.t.Helper()
	if _, err := chromedp.Call(h.p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
		h.p.t.Fatalf("let the request of %s go: %v", h.pattern, err)
	}
}
