package server

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/game"
	"github.com/magneton-games/magneton/record"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/tumbling"
)

// importAnswer is the answer of POST /api/archive/import.
type importAnswer struct {
	Files []struct {
		File       string `json:"file"`
		Games      int    `json:"games"`
		Duplicates []struct {
			File    string `json:"file"`
			Record  int    `json:"record"`
			Line    int    `json:"line"`
			Earlier string `json:"earlier"`
		} `json:"duplicates"`
		Refused *struct {
			File   string `json:"file"`
			Member string `json:"member"`
			Record int    `json:"record"`
			Line   int    `json:"line"`
			Reason string `json:"reason"`
		} `json:"refused"`
	} `json:"files"`
	Games      int    `json:"games"`
	Duplicates int    `json:"duplicates"`
	Refused    int    `json:"refused"`
	Error      string `json:"error"`
	Code       string `json:"code"`
}

// upload posts files (name, content pairs) as multipart/form-data to
// POST /api/archive/import.
func (u *user) upload(files ...string) (importAnswer, int) {
	u.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("note", "not a file")
	for i := 0; i+1 < len(files); i += 2 {
		w, err := mw.CreateFormFile("file", files[i])
		if err != nil {
			u.t.Fatal(err)
		}
		io.WriteString(w, files[i+1])
	}
	mw.Close()
	req, _ := http.NewRequest("POST", u.s.url+"/api/archive/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := u.http.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	var a importAnswer
	data, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(data, &a); err != nil {
		u.t.Fatalf("%d %q: %v", resp.StatusCode, data, err)
	}
	return a, resp.StatusCode
}

// TestArchiveImportAPI: POST /api/archive/import on a real server: a
// guest is refused; an account's files are imported (a Boardspace record,
// the site's records), a bad one refused with its place and reason, the
// same file again reported as a duplicate; JSON with a zip in base64;
// the limits of size, of files and of imports an hour, each with its
// code.
func TestArchiveImportAPI(t *testing.T) {
	s := startServer(t, t.TempDir(), func(c *Config) {
		c.Limits = DefaultLimits
		c.Limits.ImportsPerHour, c.Limits.ImportsBurst = 1, 6
	})
	defer s.stop()
	ctx := context.Background()
	bs, err := os.ReadFile("archive/testdata/import/TD-kraken-Dumbot-2010-03-15-0142.sgf")
	if err != nil {
		t.Fatal(err)
	}
	var pgn strings.Builder
	for i := range 2 {
		g := game.NewGame(tumbling.Rules{}.Start())
		g.Play([]string{"a8-a7", "e8>f8"}[i])
		if err := g.End(g.Position().Side(), game.Resignation); err != nil {
			t.Fatal(err)
		}
		pgn.WriteString(record.FromTranscript(game.Transcript{Game: g, Players: [2]string{"ann", "bob"}}).Format() + "\n")
	}

	guest := s.user()
	if a, code := guest.upload("a.sgf", string(bs)); code != http.StatusUnauthorized || a.Code != "upload_login" {
		t.Errorf("a guest: %d %+v", code, a)
	}
	if n, _ := s.st.ArchiveCounts(ctx); n.Games != 0 {
		t.Fatalf("a guest's upload imported %d games", n.Games)
	}

	u := s.user()
	if _, code := u.account("POST", "/api/account/signup", map[string]string{"name": "Importer", "password": "long enough"}); code != http.StatusOK {
		t.Fatalf("signup: %d", code)
	}
	a, code := u.upload("TD.sgf", string(bs), "games.pgn", pgn.String(), "bad.sgf", "(;GM[33];B[h1-h2])")
	if code != http.StatusOK || a.Games != 3 || a.Duplicates != 0 || a.Refused != 1 || len(a.Files) != 3 {
		t.Fatalf("upload: %d %+v", code, a)
	}
	if a.Files[0].File != "TD.sgf" || a.Files[0].Games != 1 || a.Files[1].Games != 2 || a.Files[2].Games != 0 {
		t.Errorf("the files: %+v", a.Files)
	}
	if r := a.Files[2].Refused; r == nil || r.File != "bad.sgf" || r.Record != 1 || r.Line != 1 || !strings.Contains(r.Reason, "h1-h2: the stack on h1 has a red disk on top") {
		t.Errorf("the bad file: %+v", r)
	}
	found, _, err := s.st.SearchGames(ctx, store.GameSearch{Limit: 10})
	if err != nil || len(found) != 3 {
		t.Fatalf("the archive: %+v, %v", found, err)
	}
	var boardspace string
	for _, g := range found {
		row, err := s.st.Game(ctx, g.ID)
		if err != nil || row.Rated || row.Status != store.Finished {
			t.Errorf("game %+v: %v", row, err)
		}
		if g.Source == store.SourceBoardspace {
			boardspace = g.ID
		}
	}
	if boardspace == "" {
		t.Errorf("no game from Boardspace among %+v", found)
	}

	// Again: a duplicate, naming the game.
	a, code = u.upload("TD-again.sgf", string(bs))
	if code != http.StatusOK || a.Games != 0 || a.Duplicates != 1 || a.Files[0].Duplicates[0].Earlier != boardspace || a.Files[0].Duplicates[0].Record != 1 {
		t.Errorf("again: %d %+v", code, a)
	}

	// JSON, with a zip in base64 and a text file.
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("TD-1.sgf")
	w.Write(bs)
	zw.Close()
	var j importAnswer
	code = u.do("POST", "/api/archive/import", map[string]any{"files": []map[string]string{
		{"name": "month.zip", "base64": base64.StdEncoding.EncodeToString(zbuf.Bytes())},
		{"name": `C:\games\one.pgn`, "text": pgn.String()},
	}}, &j)
	if code != http.StatusOK || j.Duplicates != 3 || j.Files[0].File != "month.zip" || j.Files[1].File != "one.pgn" {
		t.Errorf("JSON: %d %+v", code, j)
	}

	// The limits, each with its code.
	if a, code := u.upload(); code != http.StatusBadRequest || a.Code != "upload_none" {
		t.Errorf("no file: %d %+v", code, a)
	}
	var many []string
	for i := range 21 {
		many = append(many, fmt.Sprintf("f%d.pgn", i), "x")
	}
	if a, code := u.upload(many...); code != http.StatusBadRequest || a.Code != "upload_files" {
		t.Errorf("21 files: %d %+v", code, a)
	}
	if a, code := u.upload("big.pgn", strings.Repeat("x", 4<<20+1)); code != http.StatusRequestEntityTooLarge || a.Code != "upload_large" {
		t.Errorf("over 4 MiB: %d %+v", code, a)
	}
	if a, code := u.upload("x.pgn", pgn.String()); code != http.StatusTooManyRequests || a.Code != "upload_limit" {
		t.Errorf("the seventh import within the hour: %d %+v", code, a)
	}
	if n, _ := s.st.ArchiveCounts(ctx); n.Games != 3 {
		t.Errorf("%d games in the archive, want 3", n.Games)
	}
}
