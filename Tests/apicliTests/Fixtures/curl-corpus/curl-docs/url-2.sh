curl --url @file
