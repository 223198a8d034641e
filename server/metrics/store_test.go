package metrics

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// calls records the operations a timed store observes.
type calls struct {
	mu  sync.Mutex
	ops []string
}

func (c *calls) observe(op string, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d < 0 {
		op += " (negative)"
	}
	c.ops = append(c.ops, op)
}

func (c *calls) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops := c.ops
	c.ops = nil
	return ops
}

// snake is a method's name in snake case.
func snake(name string) string {
	var b []rune
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b = append(b, '_')
			}
			r = unicode.ToLower(r)
		}
		b = append(b, r)
	}
	return string(b)
}

// TestTimedEveryMethod: every method of store.Store is timed under its
// own name, one of StoreOps, even when the call panics. (The store
// wrapped is missing: each call panics in it.)
func TestTimedEveryMethod(t *testing.T) {
	rec := &calls{}
	st := Timed(struct{ store.Store }{}, rec.observe)
	typ := reflect.TypeFor[store.Store]()
	var seen []string
	for i := range typ.NumMethod() {
		meth := typ.Method(i)
		ft := meth.Type
		var args []reflect.Value
		for j := range ft.NumIn() {
			if ft.IsVariadic() && j == ft.NumIn()-1 {
				break
			}
			if j == 0 && ft.In(0) == reflect.TypeFor[context.Context]() {
				args = append(args, reflect.ValueOf(context.Background()))
				continue
			}
			args = append(args, reflect.Zero(ft.In(j)))
		}
		func() {
			defer func() { recover() }()
			reflect.ValueOf(st).MethodByName(meth.Name).Call(args)
		}()
		ops := rec.take()
		if want := snake(meth.Name); !slices.Equal(ops, []string{want}) {
			t.Errorf("%s observed %q, want [%s]", meth.Name, ops, want)
		}
		seen = append(seen, snake(meth.Name))
	}
	slices.Sort(seen)
	ops := slices.Sorted(slices.Values(StoreOps))
	if !slices.Equal(seen, ops) {
		t.Errorf("StoreOps %v\nthe methods %v", ops, seen)
	}
}

// TestTimedForwards: the timed store does what the store does, answers,
// errors and all.
func TestTimedForwards(t *testing.T) {
	rec := &calls{}
	st := Timed(storetest.Open(t, "sqlite"), rec.observe)
	ctx := t.Context()
	g := &store.Game{ID: "g1", Game: "magneton", Rules: "", Start: "start", Opponent: "human",
		Players: [2]string{"a", "b"}, Status: store.Playing, Result: "*", Position: "start",
		DrawOffer: -1, TakebackBy: -1, RematchBy: -1, Created: 1, Updated: 1}
	if err := st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Moves, g.Position = 1, "after"
	if err := st.AddMove(ctx, g, store.Move{Ply: 0, Move: "d4", PlayedAt: 2}); err != nil {
		t.Fatal(err)
	}
	moves, err := st.Moves(ctx, "g1")
	if err != nil || len(moves) != 1 || moves[0].Move != "d4" {
		t.Errorf("Moves: %v, %v", moves, err)
	}
	if got, err := st.Game(ctx, "g1"); err != nil || got.Position != "after" {
		t.Errorf("Game: %+v, %v", got, err)
	}
	if _, err := st.Game(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game of a missing id: %v, want ErrNotFound", err)
	}
	want := []string{"create_game", "add_move", "moves", "game", "game"}
	if ops := rec.take(); !slices.Equal(ops, want) {
		t.Errorf("observed %q, want %q", ops, want)
	}
}
