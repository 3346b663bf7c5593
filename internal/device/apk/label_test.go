package apk

import (
	"archive/zip"
	"bytes"
	"os"
	"testing"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLabelOfRealAPK reads the label of an APK that Android's build tools
// made.
func TestLabelOfRealAPK(t *testing.T) {
	b := readTestdata(t, "helloworld.apk")
	for _, loc := range []string{"", "en-US", "zh-CN"} {
		if got, err := Label(bytes.NewReader(b), int64(len(b)), loc); err != nil || got != "HelloWorld" {
			t.Errorf("Label(helloworld.apk, %q) = %q, %v; want HelloWorld", loc, got, err)
		}
	}
}

// TestRealTableLocales resolves strings of a real resource table in the
// locale a phone is set to: the region's own translation, the language's,
// and the default; Chinese regions never stand in for each other.
func TestRealTableLocales(t *testing.T) {
	m, err := readManifest(readTestdata(t, "myapplication-AndroidManifest.xml"))
	if err != nil || m.pkg != "com.shogo82148.androidbinary.myapplication" || m.label.ref == 0 {
		t.Fatalf("manifest: %+v, %v", m, err)
	}
	tb, err := readTable(readTestdata(t, "myapplication-resources.arsc"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tb.resolve(m.label.ref, "fr", "FR"); err != nil || got != "My Application" {
		t.Errorf("app_name = %q, %v", got, err)
	}
	// 0x7f0b0000 is appcompat's abc_action_bar_home_description.
	for _, c := range []struct{ locale, want string }{
		{"", "Navigate home"},
		{"en-GB", "Navigate home"},
		{"zh-CN", "转到主屏幕"},
		{"zh-Hans-CN", "转到主屏幕"},
		{"zh-TW", "瀏覽首頁"},
		{"fr-FR", "Revenir à l'accueil"},
		{"pt-PT", "Navegar para a página inicial"},
		{"id-ID", "Navigasi ke beranda"},
		{"xx", "Navigate home"},
	} {
		lang, region := splitLocale(c.locale)
		if got, err := tb.resolve(0x7f0b0000, lang, region); err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.locale, got, err, c.want)
		}
	}
}

// TestBuildRoundTrip: what Build writes, Label reads, in each locale.
func TestBuildRoundTrip(t *testing.T) {
	b, err := Build(App{Package: "org.example.podcasts", Activity: "org.example.podcasts.Main",
		Labels: map[string]string{"": "Podcast Player", "zh": "播客", "zh-TW": "播客播放器"}})
	if err != nil {
		t.Fatal(err)
	}
	for loc, want := range map[string]string{"": "Podcast Player", "en-US": "Podcast Player", "zh-CN": "播客", "zh-TW": "播客播放器"} {
		if got, err := Label(bytes.NewReader(b), int64(len(b)), loc); err != nil || got != want {
			t.Errorf("Label(%q) = %q, %v; want %q", loc, got, err, want)
		}
	}
	if _, err := Build(App{Package: "x.y"}); err == nil {
		t.Error("Build without a default label: no error")
	}
}

func TestLabelOfNonAPK(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("PK\x03\x04 not a zip"), emptyZip(t)} {
		if got, err := Label(bytes.NewReader(b), int64(len(b)), ""); err == nil {
			t.Errorf("Label(%q) = %q without error", b, got)
		}
	}
}

func emptyZip(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("AndroidManifest.xml")
	_, _ = w.Write([]byte("<manifest/>"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func FuzzReadManifest(f *testing.F) {
	f.Add(readTestdata(f, "myapplication-AndroidManifest.xml"))
	b, _ := Build(App{Package: "a.b", Activity: "a.b.C", Labels: map[string]string{"": "x"}})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = readManifest(b)
	})
}

func FuzzReadTable(f *testing.F) {
	f.Add(buildTable(App{Package: "a.b", Labels: map[string]string{"": "x", "zh-CN": "y"}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := readTable(b)
		if err == nil {
			_, _ = tb.resolve(labelID, "zh", "CN")
		}
	})
}
