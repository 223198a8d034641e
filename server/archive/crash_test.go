package archive

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/magneton-games/magneton/games"
	"github.com/magneton-games/magneton/store"
	"github.com/magneton-games/magneton/store/storetest"
)

// The crash child's settings, in its environment.
const (
	envCrashURL   = "MAGNETON_CRASH_URL"   // the database
	envCrashRound = "MAGNETON_CRASH_ROUND" // the round, for the games' ids and the seed
	envCrashHold  = "MAGNETON_CRASH_HOLD"  // "1": hold each index, once written, until killed
	envCrashMerge = "MAGNETON_CRASH_MERGE" // "1": merge the waiting games after every few, saying so
)

// TestCrashChild is the process TestArchiveSurvivesKill kills: it plays
// games in the store, as the server does, until it is killed. It runs only
// as that child.
func TestCrashChild(t *testing.T) {
	url := os.Getenv(envCrashURL)
	if url == "" {
		t.Skip("the child of TestArchiveSurvivesKill")
	}
	round, _ := strconv.Atoi(os.Getenv(envCrashRound))
	ctx := context.Background()
	st, err := store.Open(ctx, url)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	hold := os.Getenv(envCrashHold) == "1"
	st.SetArchiveIndexer(func(g *store.Game, moves []string) (*store.ArchiveEntry, error) {
		e, err := Index(g, moves)
		if hold {
			// The game's end is written in this transaction, its index
			// about to be: the parent kills us here.
			fmt.Println("indexing", g.ID)
			time.Sleep(time.Minute)
		}
		return e, err
	})
	merge := os.Getenv(envCrashMerge) == "1"
	rng := rand.New(rand.NewPCG(uint64(round), 99))
	all := games.All()
	for i := 0; ; i++ {
		gm := all[i%len(all)]
		rules := gm.Spec.New(gm.Spec.Defaults())
		g := playRandom(t, ctx, st, rng, fmt.Sprintf("r%d-%04d", round, i), rules, [2]string{"ann", "bob"})
		fmt.Println("played", g.ID, g.Status)
		if merge && i%4 == 3 {
			// The games ended since the last merge wait in the recent
			// tables (the background merger waits 100 ms): the parent
			// kills us while this moves them.
			fmt.Println("merging")
			if _, err := st.MergeArchive(ctx); err != nil {
				fmt.Println("merge:", err)
				os.Exit(1)
			}
		}
	}
}

// TestArchiveSurvivesKill: a process that plays and ends games is killed
// (SIGKILL) again and again, once while it holds a game's index inside the
// transaction that writes the game's end, at random moments, and at
// random moments of merges of the games waiting in the archive's recent
// tables into its big ones; after each kill the archive holds every
// finished game once, no other, and matches its recount — on both
// databases.
func TestArchiveSurvivesKill(t *testing.T) {
	if os.Getenv(envCrashURL) != "" {
		t.Skip("in the child")
	}
	storetest.Each(t, func(t *testing.T, backend string) {
		url := storetest.URL(t, backend)
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(5, 5))
		for round := range 7 {
			hold, merge := round == 0, round >= 4
			child := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.v")
			child.Env = append(os.Environ(), envCrashURL+"="+url, envCrashRound+"="+strconv.Itoa(round))
			if hold {
				child.Env = append(child.Env, envCrashHold+"=1")
			}
			if merge {
				child.Env = append(child.Env, envCrashMerge+"=1")
			}
			out, err := child.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			child.Stderr = os.Stderr
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(out)
			want := 3 + rng.IntN(8) // games to let it end before the kill
			played, held, merges := 0, "", 0
			deadline := time.Now().Add(2 * time.Minute)
			for lines.Scan() && time.Now().Before(deadline) {
				line := lines.Text()
				if id, ok := strings.CutPrefix(line, "indexing "); ok {
					held = id
					break
				}
				if merge && line == "merging" {
					if merges++; merges >= 2 {
						// Within the merge, or just after it.
						time.Sleep(time.Duration(rng.IntN(4000)) * time.Microsecond)
						break
					}
					continue
				}
				if strings.HasPrefix(line, "played ") {
					if played++; played >= want && !merge {
						// Somewhere in the next game.
						time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
						break
					}
				}
			}
			child.Process.Signal(syscall.SIGKILL)
			child.Wait()
			if hold && held == "" {
				t.Fatal("the child never held an index")
			}
			if merge && merges < 2 {
				t.Fatal("the child never merged twice")
			}
			st, err := store.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			if held != "" {
				// Its end was not written: it is still being played.
				g, err := st.Game(ctx, held)
				if err != nil {
					t.Fatal(err)
				}
				if g.Status == store.Finished {
					t.Errorf("game %s is finished though its transaction was killed", held)
				}
			}
			finished := 0
			if err := st.ArchiveGames(ctx, "", func(*store.Game, []string) (bool, error) { finished++; return true, nil }); err != nil {
				t.Fatal(err)
			}
			c, err := st.ArchiveCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if int(c.Games) != finished {
				t.Errorf("round %d: %d games archived, %d finished", round, c.Games, finished)
			}
			r, err := Verify(ctx, st, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !r.OK() || len(r.Failed) > 0 {
				t.Errorf("round %d: verify: %+v", round, r)
			}
			t.Logf("round %d: killed after %d games (held %q, %d merges); %d finished games archived", round, played, held, merges, finished)
			st.Close()
		}
	})
}
