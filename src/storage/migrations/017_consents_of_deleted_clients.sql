-- P108: a client's deletion now removes its consents; these are the ones left by deletions before it.
DELETE FROM consents c USING clients cl WHERE cl.client_id = c.client_id AND cl.deleted_at IS NOT NULL;
