package tournaments

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/magneton-games/magneton/server/chat"
	"github.com/magneton-games/magneton/server/jsonapi"
	"github.com/magneton-games/magneton/server/wire"
	"github.com/magneton-games/magneton/store"
)

// chatKey is where a tournament's chat lines are kept: the games' chat
// table, under an id no game has (game ids are 16 characters).
func chatKey(id string) string { return "t-" + id }

// chats keeps each tournament's chat.Log on this instance: the pace of
// each writer, and one line written at a time.
type chats struct {
	mu   sync.Mutex
	logs map[string]*chat.Log
}

// chatLines is the answer of GET .../chat.
type chatLines struct {
	Lines []wire.ChatLine `json:"lines"`
}

func (t *Tournaments) handleChat(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	from, _ := strconv.Atoi(r.URL.Query().Get("from"))
	lines, err := t.cfg.Store.Chat(r.Context(), chatKey(id), max(from, 0))
	if err != nil {
		t.fail(w, r, err)
		return
	}
	out := chatLines{Lines: []wire.ChatLine{}}
	for _, l := range lines {
		out.Lines = append(out.Lines, chat.Line(l))
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// chatRequest is the body of POST .../chat.
type chatRequest struct {
	Text string `json:"text"`
}

func (t *Tournaments) handleSay(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if !jsonapi.Read(w, r, &req) {
		return
	}
	tr, userID, ok := t.entered(w, r)
	if !ok {
		return
	}
	_, name := t.cfg.Identities.Identity(r)
	line, err := t.say(r.Context(), tr, userID, name, req.Text, time.Now())
	if err != nil {
		t.answer(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, chat.Line(line))
}

// say adds a line of the account userID, named name, to a tournament's
// chat, as a spectator's line of a game: cleaned, paced, refused to a
// muted account.
func (t *Tournaments) say(ctx context.Context, tr *store.Tournament, userID, name, text string, now time.Time) (store.ChatLine, error) {
	if t.cfg.Moderation != nil {
		if err := t.cfg.Moderation.CheckChat(ctx, userID, now); err != nil {
			return store.ChatLine{}, refusal{http.StatusForbidden, err}
		}
	}
	text, err := chat.Clean(text)
	if err != nil {
		return store.ChatLine{}, refusal{http.StatusBadRequest, err}
	}
	t.chats.mu.Lock()
	defer t.chats.mu.Unlock()
	if t.chats.logs == nil {
		t.chats.logs = map[string]*chat.Log{}
	}
	log := t.chats.logs[tr.ID]
	if log == nil {
		log = &chat.Log{}
		t.chats.logs[tr.ID] = log
	}
	if !log.Allow("user:"+userID, now) {
		return store.ChatLine{}, refuse(http.StatusTooManyRequests, "chat_fast", "chat: too many messages; wait a moment")
	}
	// Another instance may have written meanwhile: the lines are read
	// again, and a line numbered as another's is tried once more.
	var line store.ChatLine
	var saved error
	for try := 0; try < 2; try++ {
		lines, err := t.cfg.Store.Chat(ctx, chatKey(tr.ID), 0)
		if err != nil {
			return line, err
		}
		log.Load(lines)
		if err := log.Full(store.ChatSpectators); err != nil {
			return line, refusal{http.StatusConflict, err}
		}
		line = log.Next(chatKey(tr.ID), -1, name, text, now)
		if saved = t.cfg.Store.AddChat(ctx, line); saved == nil {
			return line, nil
		}
	}
	return line, saved
}
