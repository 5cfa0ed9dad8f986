package cli

import "github.com/lockstep-dev/lockstep/engine"

// An engine without the data rules (engine.Info.Data false), registered
// for the tests only: every built-in engine now has them, and the refusal
// of a program with data is about such an engine, a researcher's own.
func init() {
	engine.Register(engine.Info{
		Name: "nodata-test",
		Doc:  "summary:fixed registered without the data rules (tests only)",
		New: func(variant string, cfg engine.Config) (engine.UnderTest, error) {
			return engine.New("summary:fixed", cfg)
		},
	})
}
