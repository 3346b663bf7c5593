package device

import (
	"context"
	"image"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Screenshot is one capture of the screen.
type Screenshot struct {
	PNG []byte // PNG bytes; nil when Sensitive or when Pixels is set
	// Pixels is the screen as raw pixels, opaque, at full size: set
	// instead of PNG by a raw capture (PixelCapturer), nil otherwise.
	Pixels *image.RGBA
	// raw is the capture's buffer that Pixels lies in (Release).
	raw    []byte
	Width  int
	Height int
	// Sensitive is set when the screen could not be captured because the app
	// forbids it (FLAG_SECURE: screencap fails or returns an all-black image).
	// It is a normal result, not an error: the caller must not treat the
	// missing image as a black screen.
	Sensitive bool
	Reason    string // why Sensitive was set, for the model and the user
}

// App is the app in the foreground.
type App struct {
	Package  string `json:"package"`
	Name     string `json:"name"`               // display name from the app table, or the package
	Activity string `json:"activity,omitempty"` // focused activity when known
	// Window is the system UI window that has the focus (NotificationShade,
	// StatusBar, Keyguard) when it covers the app; "" otherwise.
	Window string `json:"window,omitempty"`
}

// Device is a phone as activities use it. Coordinates are screen pixels.
// Every input method waits for the screen to settle according to the
// device's settle policy before it returns.
type Device interface {
	Serial() string
	Screenshot(ctx context.Context) (Screenshot, error)
	Tap(ctx context.Context, x, y int) error
	DoubleTap(ctx context.Context, x, y int) error
	LongPress(ctx context.Context, x, y int) error
	// Swipe drags from (x1,y1) to (x2,y2); d == 0 picks a duration from the distance.
	Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error
	Back(ctx context.Context) error
	Home(ctx context.Context) error
	Wake(ctx context.Context) error
	// Launch starts an app by display name (English or Chinese) or package.
	Launch(ctx context.Context, app string) error
	// Type enters text into the focused field through the ADB Keyboard IME.
	Type(ctx context.Context, text string) error
	CurrentApp(ctx context.Context) (App, error)
	ScreenSize(ctx context.Context) (width, height int, err error)
	UITree(ctx context.Context) ([]uitree.Element, error)
}

// Info describes a phone an ADB server knows about.
type Info struct {
	Serial  string `json:"serial"`
	State   string `json:"state"` // device, offline, unauthorized, ...
	Model   string `json:"model,omitempty"`
	Product string `json:"product,omitempty"`
	Device  string `json:"device,omitempty"`
	// TransportID is the server's id for the connection, 0 when unknown.
	TransportID int `json:"transport_id,omitempty"`
}
