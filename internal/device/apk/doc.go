// Package apk reads the label an Android app shows on the launcher from
// its APK: the binary AndroidManifest.xml names the launcher activity and
// the label (a string or a resource), and resources.arsc holds the
// label's translations. Phones keep their APKs readable to adb's shell, so
// the label a person sees can be resolved on any phone without installing
// anything on it. Build writes such an APK, for the simulator.
package apk
