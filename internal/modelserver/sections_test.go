package modelserver

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// settingsScreenOf is the phone's screen as a check reads it.
func settingsScreenOf(p *phonesim.Phone) postcond.Observed {
	return postcond.Observed{Final: postcond.Screen{App: "Settings", AppPackage: "com.android.settings", Elements: p.UITree()}}
}

// The persona opens every section a goal may name by its classic title on
// every skin, from Settings' main list: a Pixel's "Security & privacy",
// MIUI's 存储空间 and 更多设置, One UI's "Sounds and vibration" and Storage
// inside Device care. The phone ends on the page the eval's check wants
// (phonesim.SectionScreen), and the planner's checks of that todo hold on
// it; they hold neither on the main list nor on the next section's page.
func TestPersonaOpensEverySectionOnEverySkin(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	sections := phonesim.SettingsSections()
	for _, skin := range phonesim.Skins {
		for i, s := range sections {
			todo := sectionTodos(s)[1]
			p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
			a.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
			if rs := postcond.Eval(todo.Expect, settingsScreenOf(p)); postcond.AllHeld(rs) {
				t.Errorf("%s %s: the checks hold on the main list: %s", skin, s, postcond.Summary(rs))
			}
			got, steps := runGoal(t, srv.URL, a, todo.Todo, 16)
			if want := phonesim.SectionScreen(skin, s); p.State().Screen != want {
				t.Errorf("%s: %q finished %q in %d steps on %+v, want %+v", skin, todo.Todo, got, steps, p.State().Screen, want)
				continue
			}
			if rs := postcond.Eval(todo.Expect, settingsScreenOf(p)); !postcond.AllHeld(rs) {
				t.Errorf("%s %s: on its page %s", skin, s, postcond.Summary(rs))
			}
			// The same checks on the next section's page fail.
			next := sections[(i+1)%len(sections)]
			q, b := startPhoneWith(t, phonesim.Config{Skin: skin})
			b.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
			runGoal(t, srv.URL, b, sectionTodos(next)[1].Todo, 16)
			if rs := postcond.Eval(todo.Expect, settingsScreenOf(q)); postcond.AllHeld(rs) {
				t.Errorf("%s %s: the checks hold on %s's page %+v: %s", skin, s, next, q.State().Screen, postcond.Summary(rs))
			}
		}
	}
}

// A goal may name a section in Chinese, or as MIUI titles it; the planner
// reads it as the section, and its checks name the section as AOSP
// titles it, which a check reads under any vendor's name.
func TestReadSectionsByVendorAndChineseNames(t *testing.T) {
	for goal, want := range map[string]string{
		"打开设置里的显示页面":         "Display",
		"打开设置里的位置信息页面":       "Location",
		"打开设置里的存储页面":         "Storage",
		"打开设置里的存储空间页面":       "Storage",
		"打开设置里的声音页面":         "Sound",
		"打开设置里的安全页面":         "Security",
		"打开设置里的系统页面":         "System",
		"打开设置里的更多设置页面":       "System",
		"打开设置里的账号页面":         "Accounts",
		"打开设置里的Security页面":   "Security",
		"Settings > Storage": "Storage",
	} {
		g := readPlan(t, goal)
		if !strings.Contains(g, fmt.Sprintf("Tap %s ⟨", want)) {
			t.Errorf("%q planned %s, want the %s page", goal, g, want)
		}
	}
}
