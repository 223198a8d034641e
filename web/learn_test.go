package web

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/magneton-games/magneton/games"
)

var (
	// teachesRe finds a lesson's list of the options it teaches.
	teachesRe = regexp.MustCompile(`teaches:\s*\[([^\]]*)\]`)
	// stageRulesRe finds a stage's (or a quiz question's) rules.
	stageRulesRe = regexp.MustCompile(`\brules:\s*'([^']*)'`)
	quotedRe     = regexp.MustCompile(`'([^']+)'`)
)

// lessonSources returns the lesson modules of a game: its -learn.js and,
// when it has one, its -lessons.js.
func lessonSources(t *testing.T, name string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range []string{"js/games/" + name + "-learn.js", "js/games/" + name + "-lessons.js"} {
		src, err := fs.ReadFile(Files, f)
		if err == nil {
			b.Write(src)
		}
	}
	return b.String()
}

// TestLessonsTeachEveryOption: every rule option of every game of the
// registry (its Spec's own list, so that an option added to the rules
// needs a lesson) is named by a lesson (teaches: [...]) of its learning
// module, and each of its values other than the default is the rules of
// a lesson's stage or a quiz question, read by the Spec as the server
// reads a game's rules.
func TestLessonsTeachEveryOption(t *testing.T) {
	for _, g := range games.All() {
		sp := g.Spec
		if len(sp.Options) == 0 {
			continue
		}
		src := lessonSources(t, sp.Name)
		if src == "" {
			t.Errorf("%s has rule options and no lessons", sp.Name)
			continue
		}
		taught := map[string]bool{}
		for _, m := range teachesRe.FindAllStringSubmatch(src, -1) {
			for _, q := range quotedRe.FindAllStringSubmatch(m[1], -1) {
				taught[q[1]] = true
			}
		}
		played := map[string]bool{} // "name=value" of the stages' rules
		for _, m := range stageRulesRe.FindAllStringSubmatch(src, -1) {
			s, err := sp.ParseSettings(m[1])
			if err != nil {
				t.Errorf("%s: a lesson's rules %q: %v", sp.Name, m[1], err)
				continue
			}
			for k, v := range s {
				played[k+"="+v] = true
			}
		}
		for _, o := range sp.Options {
			if !taught[o.Name] {
				t.Errorf("%s: no lesson teaches the rule option %q (teaches: [...])", sp.Name, o.Name)
			}
			for _, v := range o.Values {
				if v != o.Default() && !played[o.Name+"="+v] {
					t.Errorf("%s: no lesson stage or quiz question is played with %s=%s", sp.Name, o.Name, v)
				}
			}
		}
		for name := range taught {
			if _, ok := sp.Option(name); !ok {
				t.Errorf("%s: a lesson teaches %q, which is not a rule option (%v)", sp.Name, name, slices.Collect(func(yield func(string) bool) {
					for _, o := range sp.Options {
						if !yield(o.Name) {
							return
						}
					}
				}))
			}
		}
	}
}
