package bakery

import "context"

func SceneBranches(ctx context.Context, cfg Config) (*Report, error) {
	return newReport("branches"), nil
}
func SceneRush(ctx context.Context, cfg Config) (*Report, error) { return newReport("rush"), nil }
func SceneEdge(ctx context.Context, cfg Config) (*Report, error) { return newReport("edge"), nil }
func ScenePractices(ctx context.Context, cfg Config) (*Report, error) {
	return newReport("practices"), nil
}
func SceneMonitoring(ctx context.Context, cfg Config) (*Report, error) {
	return newReport("monitoring"), nil
}
