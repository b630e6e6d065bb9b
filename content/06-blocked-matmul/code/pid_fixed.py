pid = tl.program_id(0)
tiles_m = tl.cdiv(M, BLOCK_M)
tiles_n = tl.cdiv(N, BLOCK_N)
per_group = GROUP_SIZE_M * tiles_n
first_m = (pid // per_group) * GROUP_SIZE_M
rows_in_group = min(tiles_m - first_m, GROUP_SIZE_M)
pid_m = first_m + (pid % per_group) % rows_in_group
pid_n = (pid % per_group) // rows_in_group
