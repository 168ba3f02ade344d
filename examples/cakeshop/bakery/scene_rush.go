package bakery

import "context"

func SceneRush(ctx context.Context, cfg Config) (*Report, error) { return newReport("rush"), nil }
