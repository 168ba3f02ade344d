package bakery

import "context"

func SceneBranches(ctx context.Context, cfg Config) (*Report, error)   { return newReport("branches"), nil }
func SceneRush(ctx context.Context, cfg Config) (*Report, error)       { return newReport("rush"), nil }
