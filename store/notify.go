package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// maxPayload bounds a notification (PostgreSQL's limit is 8,000 bytes).
const maxPayload = 7000

// bus carries notifications between listeners of one process: SQLite's
// notifications, and on PostgreSQL the fan-out of what the database's
// connection receives to this process's listeners.
type bus struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{}
}

type subscriber struct {
	channels map[string]bool
	out      chan Notification
	ctx      context.Context
}

func newBus() *bus { return &bus{subs: map[*subscriber]struct{}{}} }

// subscribe adds a listener of channels until ctx ends.
func (b *bus) subscribe(ctx context.Context, channels []string) <-chan Notification {
	sub := &subscriber{channels: map[string]bool{}, out: make(chan Notification, 1024), ctx: ctx}
	for _, c := range channels {
		sub.channels[c] = true
	}
	b.mu.Lock()
	b.subs[sub] = struct{}{}
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		b.mu.Lock()
		delete(b.subs, sub)
		close(sub.out)
		b.mu.Unlock()
	}()
	return sub.out
}

// publish delivers n to the listeners of its channel (all, for a
// reconnection). A listener that does not keep up loses the notification
// and is told it reconnected, so that it catches up from the database.
func (b *bus) publish(n Notification) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for sub := range b.subs {
		if !n.Reconnected && !sub.channels[n.Channel] {
			continue
		}
		select {
		case sub.out <- n:
		default:
			select {
			case sub.out <- Notification{Reconnected: true}:
			default:
			}
		}
	}
}

func checkPayload(channel, payload string) error {
	if len(payload) > maxPayload {
		return fmt.Errorf("notify %s: payload of %d bytes, over %d", channel, len(payload), maxPayload)
	}
	if channel == "" {
		return errors.New("notify: no channel")
	}
	return nil
}

func (s *sqlStore) Notify(ctx context.Context, channel, payload string) error {
	if err := checkPayload(channel, payload); err != nil {
		return err
	}
	if s.pg != nil {
		return s.pg.notify(ctx, channel, payload)
	}
	s.bus.publish(Notification{Channel: channel, Payload: payload})
	return nil
}

func (s *sqlStore) Listen(ctx context.Context, channels ...string) (<-chan Notification, error) {
	if s.pg != nil {
		if err := s.pg.listen(ctx, channels); err != nil {
			return nil, err
		}
	}
	return s.bus.subscribe(ctx, channels), nil
}
