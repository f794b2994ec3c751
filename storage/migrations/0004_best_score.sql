-- Schema version 4: each player summary also keeps the highest score reached
-- (stats show "best score" beside the best game, which for Jeu du Boulanger is
-- the shortest win, not necessarily the highest score).
ALTER TABLE player_bests ADD COLUMN best_score INTEGER NOT NULL DEFAULT 0;

-- One grouped pass per scope over the history, joined to the summaries by key.
UPDATE player_bests SET best_score = s.top
FROM (
    SELECT 'p' AS scope, 0 AS scope_id, kind, -1 AS cells, user_id, max(score) AS top
        FROM results GROUP BY kind, user_id
    UNION ALL
    SELECT 'p', 0, kind, cells, user_id, max(score)
        FROM results WHERE cells IS NOT NULL GROUP BY kind, cells, user_id
    UNION ALL
    SELECT 'g', guild_id, kind, -1, user_id, max(score)
        FROM results WHERE guild_id IS NOT NULL GROUP BY guild_id, kind, user_id
    UNION ALL
    SELECT 'g', guild_id, kind, cells, user_id, max(score)
        FROM results WHERE guild_id IS NOT NULL AND cells IS NOT NULL GROUP BY guild_id, kind, cells, user_id
    UNION ALL
    SELECT 'c', channel_id, kind, -1, user_id, max(score)
        FROM results WHERE channel_id IS NOT NULL GROUP BY channel_id, kind, user_id
    UNION ALL
    SELECT 'c', channel_id, kind, cells, user_id, max(score)
        FROM results WHERE channel_id IS NOT NULL AND cells IS NOT NULL GROUP BY channel_id, kind, cells, user_id
) AS s
WHERE player_bests.scope = s.scope AND player_bests.scope_id = s.scope_id AND player_bests.kind = s.kind
  AND player_bests.cells = s.cells AND player_bests.user_id = s.user_id;
