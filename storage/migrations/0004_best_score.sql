-- Schema version 4: each player summary also keeps the highest score reached
-- (stats show "best score" beside the best game, which for Jeu du Boulanger is
-- the shortest win, not necessarily the highest score).
ALTER TABLE player_bests ADD COLUMN best_score INTEGER NOT NULL DEFAULT 0;

UPDATE player_bests SET best_score = coalesce((
    SELECT max(r.score) FROM results r
    WHERE r.kind = player_bests.kind
      AND r.user_id = player_bests.user_id
      AND (player_bests.cells = -1 OR r.cells = player_bests.cells)
      AND (player_bests.scope = 'p'
           OR (player_bests.scope = 'g' AND r.guild_id = player_bests.scope_id)
           OR (player_bests.scope = 'c' AND r.channel_id = player_bests.scope_id))
), 0);
